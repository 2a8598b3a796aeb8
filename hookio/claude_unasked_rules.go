package hookio

import (
	"errors"
	"io/fs"
	"regexp"
	"strings"
	"sync"
)

// The rules of Claude Code 2.1.330's own Bash permission check, one per
// program, as measured with an abstaining hook (testdata/hosts/claude/
// unasked.md has every form tried and the answer in each mode). Each rule
// lists the options seen to run; an option it does not list is asked
// about, whether or not the host would: the table errs towards "asked".

// optKind is what an option takes.
type optKind uint8

const (
	optFlag  optKind = iota // no value
	optValue                // a value: the next word, or attached
	optPath                 // a value that names a file the program reads
)

// Every option value, optValue or optPath, must pass readPath: Claude
// Code takes the words of most programs for paths whether or not an
// option consumes them ("ls -I ../x", "sort -t / -k 1 a.txt",
// "stat -c /%s a.txt" and "head -n ~1 a.txt" are asked). That refuses
// some values the host lets through ("grep -e ../x", "ls --hide=../x").

// operands is how a rule judges the words that are not options.
type operands uint8

const (
	opsNone    operands = iota // none allowed
	opsFree                    // anything static: they name no file (echo, seq)
	opsRead                    // each is a path read (readPath)
	opsPattern                 // the first is a pattern, unless an option gave one; the rest are read
	opsWrite                   // each is a path written (writePath), acceptEdits only
)

// unaskedRule is one program's rule.
type unaskedRule struct {
	modes uint8
	opts  optSpec
	// numeric allows -NUM (head -1, tail -5).
	numeric bool
	ops     operands
	// patternOpts name the options that give grep's pattern (-e, -f):
	// with one, every operand is a path.
	patternOpts []string
	// dashdash: "--" ends the options (false: "--" is asked).
	dashdash bool
	// minOps is the fewest operands allowed (cp and mv need two).
	minOps int
	// anyArgs: any static words, options included, as long as none holds
	// a character of "<>()$`|{}&;" or a newline: Claude Code matches
	// these programs with a pattern that allows anything else.
	anyArgs bool
	// judge decides; nil is judgeArgs.
	judge func(w *unaskedWalk, r *unaskedRule, args []uword) bool
	// evidence: forms seen to run / asked, in Claude Code 2.1.330.
	evidence string
}

// optSpec lists a program's options, "-n= -c= --lines= -f=path -v": "="
// takes a value, "=path" a value that is a path read. It is a string, not
// a map, so that the rules are static data: nothing is built for them at
// start-up or on first use (issue 31).
type optSpec string

// kind returns what the option name takes, and whether s lists it (the
// last entry for it, when listed twice).
func (s optSpec) kind(name string) (optKind, bool) {
	kind, found := optFlag, false
	for f := range strings.FieldsSeq(string(s)) {
		n, value, hasValue := strings.Cut(f, "=")
		if n != name {
			continue
		}
		found = true
		switch {
		case !hasValue:
			kind = optFlag
		case value == "path":
			kind = optPath
		default:
			kind = optValue
		}
	}
	return kind, found
}

// unaskedRules are the programs Claude Code 2.1.330 may run unasked, by
// name (no directory: "/bin/ls" was not measured). git is judged apart
// (gitCall).
var unaskedRules = sync.OnceValue(func() map[string]*unaskedRule {
	return map[string]*unaskedRule{
		// Read-only programs whose operands are files (every mode).
		"cat": {modes: readModes, opts: "-A -v -s -n --show-all", ops: opsRead, dashdash: true,
			evidence: "cat a.txt, cat -n/-A/-v/-s/--show-all, cat *.txt, cat missing.txt, cat {{PROJ}}/a.txt run; cat ../secret, /etc/passwd, ~/h.txt, $HOME/h.txt, link/o.txt, src/../a.txt asked"},
		"head": {modes: readModes, opts: "-n= -c= --lines=", numeric: true, ops: opsRead, dashdash: true,
			evidence: "head a.txt, head -n 1, head -1, head -c 3, head -n -1, head --lines=1 run; head ../secret asked"},
		"tail": {modes: readModes, opts: "-n= -c= --pid=", numeric: true, ops: opsRead, dashdash: true,
			evidence: "tail a.txt, tail -n 1, tail -c 3, tail -n +2, tail --pid=1 run; tail ../secret, tail -f /dev/null asked; tail -F a.txt runs, and never ends (not allowed here)"},
		"wc": {modes: readModes, opts: "-l -c -w -m -L", ops: opsRead, dashdash: true,
			evidence: "wc a.txt, wc -l/-c/-w/-m/-L, wc -l *.txt run; wc ../secret asked; wc --files0-from=list.txt runs (not allowed here: it names files by a file)"},
		"stat":    {modes: readModes, opts: "-c=", ops: opsRead, dashdash: true, evidence: "stat a.txt, stat -c %s a.txt run; stat ../secret, stat -L link asked"},
		"file":    {modes: readModes, opts: "-i -b", ops: opsRead, dashdash: true, evidence: "file a.txt, file -i, file -b run; file ../secret, file link, file -z asked"},
		"strings": {modes: readModes, ops: opsRead, evidence: "strings a.txt runs; strings ../secret asked"},
		"od":      {modes: readModes, opts: "-c", ops: opsRead, evidence: "od -c a.txt runs; od -c ../secret asked"},
		"hexdump": {modes: readModes, opts: "-C", ops: opsRead, evidence: "hexdump -C a.txt runs; hexdump ../secret asked; xxd asked"},
		"nl":      {modes: readModes, ops: opsRead, evidence: "nl a.txt runs; nl ../secret asked"},
		"tac":     {modes: readModes, ops: opsRead, evidence: "tac a.txt runs; tac ../secret asked"},
		"rev":     {modes: readModes, ops: opsRead, evidence: "rev a.txt runs; rev ../secret asked"},
		"cut":     {modes: readModes, opts: "-c= -d= -f=", ops: opsRead, evidence: "cut -c1-3 a.txt, cut -d , -f 1 a.txt run; cut -f1 ../secret asked"},
		"paste":   {modes: readModes, ops: opsRead, evidence: "paste a.txt b.txt runs; paste a.txt ../secret asked"},
		"column":  {modes: readModes, opts: "-t", ops: opsRead, evidence: "column -t a.txt runs"},
		"fold":    {modes: readModes, opts: "-w=", ops: opsRead, evidence: "fold -w 3 a.txt runs"},
		"fmt":     {modes: readModes, ops: opsRead, evidence: "fmt a.txt runs"},
		"expand":  {modes: readModes, ops: opsRead, evidence: "expand a.txt runs"},
		"tsort":   {modes: readModes, ops: opsRead, evidence: "tsort a.txt runs"},
		"pr":      {modes: readModes, ops: opsRead, evidence: "pr a.txt runs"},
		"diff":    {modes: readModes, opts: "-u -r --brief", ops: opsRead, evidence: "diff a.txt b.txt, diff -u, diff -r src dir, diff --brief run; diff a.txt ../secret asked"},
		"cmp":     {modes: readModes, ops: opsRead, evidence: "cmp a.txt b.txt runs; cmp a.txt ../secret asked"},
		"comm":    {modes: readModes, ops: opsRead, evidence: "comm a.txt b.txt runs; comm a.txt ../secret asked"},
		"md5sum":  {modes: readModes, ops: opsRead, evidence: "md5sum a.txt runs; md5sum ../secret asked"},
		"sha1sum": {modes: readModes, ops: opsRead, evidence: "sha1sum a.txt runs"},
		"sha256sum": {modes: readModes, ops: opsRead,
			evidence: "sha256sum a.txt runs; sha256sum -c list.txt runs (not allowed here: -c reads the files a file names); cksum asked"},
		"base64": {modes: readModes, opts: "-d", ops: opsRead, evidence: "base64 a.txt, base64 -d list.txt run; base64 ../secret asked"},
		"sort": {modes: readModes, opts: "-r -n -u -m -c -k= -t=", ops: opsRead, dashdash: true,
			evidence: "sort a.txt, sort -r/-n/-u/-m/-c, sort -k 1, sort -t , -k 1 run; sort -o out.txt, --output=, -T /tmp, --compress-program=gzip, sort ../secret asked"},
		"du": {modes: readModes, opts: "-s -h -a --max-depth=", ops: opsRead,
			evidence: "du -sh ., du -sh dir, du -a, du -h a.txt, du --max-depth=1 run; du -sh .., du ../other, du -sh ~ run too (du's paths are not checked; this table asks for them)"},
		"tree": {modes: readModes, opts: "-L= -a -d -f -I=", ops: opsRead,
			evidence: "tree, tree -L 1, -a, -d, -f src, -I dir run; tree .., tree /etc, tree ~ run too (not checked; this table asks for them); tree -o out.txt, tree -R asked"},
		"ls": {modes: readModes, opts: "-l -a -A -1 -h -t -d -R -S -r --color= -I= --hide=", ops: opsRead, dashdash: true,
			evidence: "ls, ls -la, -R, -l src, -a, -1, -lh, -t, -d src, --color=auto, -lR src, -I x, --hide=x, ls *, ls -d */, ls .git run; ls .., ~, /, /etc, link (-> ../other) asked"},
		"grep": {modes: readModes, opts: "-r -R -n -c -i -v -l -w -E -F -o -h -q -P -z -A= -B= -C= -e= -f=path --include= --exclude-dir= --color=",
			ops: opsPattern, patternOpts: []string{"-e", "-f"}, dashdash: true,
			evidence: "grep alpha a.txt, -r alpha ., -r alpha, -rn alpha src, -R, -i/-v/-l/-w/-E/-F/-o/-A 1/-e/-h/-q/-P/-z/-c, --include=, --exclude-dir=, --color=always, -f list.txt, grep alpha *, grep alpha (stdin) run; grep -r alpha .., grep alpha ../secret, grep root /etc/passwd, -f ../secret, grep -r alpha /tmp asked"},
		"egrep": {modes: readModes, ops: opsPattern, evidence: "egrep 'al|be' a.txt runs"},
		"fgrep": {modes: readModes, ops: opsPattern, evidence: "fgrep alpha a.txt runs"},
		"rg": {modes: readModes, opts: "-n -i -l -uu --hidden -L --json -g= -t= -f=path", ops: opsPattern, patternOpts: []string{"-f"}, dashdash: true,
			evidence: "rg alpha, rg alpha src, rg -n, -i, -g '*.txt', -t go, -uu, --hidden, -L, --json, -f list.txt a.txt run; rg alpha .., rg alpha ~, rg -l alpha /etc, rg --pre cat, --files, -z, --search-zip, -r X asked"},
		"cd": {modes: readModes, ops: opsRead, judge: judgeCd,
			evidence: "cd src, cd src && ls, cd src && cat main.go run; cd .., cd /, cd ~ && ls, mkdir x && cd x asked"},
		"find": {modes: readModes, judge: judgeFind,
			evidence: "find ., find . -name '*.go', find src -type f, -newer a.txt, -maxdepth/-mindepth, -iname, -path, -size, -mtime, -empty, -print, -print0, -printf, -L, -follow, -o, -regex, -prune, -not, -ls run; find .., find /, find ~, -exec, -execdir, -ok, -delete, -fprint, -fls, -fprintf asked"},
		"sed": {modes: readModes, judge: judgeSed,
			evidence: "sed -n 1p a.txt, sed -n '1,2p', sed --quiet 1p, sed -z -n 1p, sed -n 1p a.txt b.txt run in every mode; sed -n -e 1p, sed -E -n s/a/b/p, sed -n /alpha/p, sed -n 'w out.txt', sed -f, sed -n 1p ../secret asked; in acceptEdits sed 's/a/b/' a.txt and sed -i 's/a/b/' a.txt run, sed -i.bak, sed -e, sed 1e, s///w asked"},
		"jq": {modes: readModes, judge: judgeJq,
			evidence: "jq . data.json, jq -r .k, -c, -s, --arg x 1 .k, '.k|tostring', jq .k < data.json run; jq . ../secret, jq -n env, jq -n '$ENV', -f, -L, --slurpfile asked"},
		"xargs": {modes: readModes, judge: judgeXargs,
			evidence: "ls | xargs wc -l, xargs wc -c, xargs head, xargs grep alpha run; echo a.txt | xargs cat, xargs rm, xargs --version asked"},

		// Programs that read no file named by their operands (every mode).
		"echo": {modes: readModes, opts: "-n -e", ops: opsFree,
			evidence: "echo hello, echo -n, echo -e, echo ~, echo *, echo '$(x)' run; echo $FOO, ${HOME}, $PWD, $(whoami), `whoami` asked"},
		"printf": {modes: readModes, ops: opsFree, judge: judgePrintf,
			evidence: "printf 'x\\n', printf '%s\\n' a b, printf '%q' x run; printf -v v x, printf '%n' x asked"},
		"pwd": {modes: readModes, ops: opsNone, evidence: "pwd runs; pwd -P asked"},
		"tr": {modes: readModes, opts: "-d -s", judge: judgeTr,
			evidence: "tr a b < a.txt, tr -d a < a.txt, tr -s a < a.txt, tr a-z A-Z, tr a b a.txt run; tr a b ../secret, tr -d a ../secret asked (the words after the sets are paths to Claude Code)"},
		"uniq": {modes: readModes, opts: "-c -u", ops: opsNone,
			evidence: "cat a.txt | sort | uniq, uniq -c, uniq -u run; uniq a.txt, uniq -c a.txt, uniq a.txt out.txt asked"},
		"pgrep":   {modes: readModes, opts: "-f -x", ops: opsFree, evidence: "pgrep bash, pgrep -f bash, pgrep -x bash run; pgrep $FOO asked (pgrep -F ../secret runs; not allowed here)"},
		"history": {modes: readModes, judge: judgeHistory, evidence: "history, history 5 run; history -c asked"},
		"help":    {modes: readModes, ops: opsFree, judge: judgeNoSlash, evidence: "help cd runs"},
		"man":     {modes: readModes, opts: "-k", ops: opsRead, judge: judgeNoSlash, evidence: "man ls, man -k ls run; man .., man ./x.1, man -P cat ls asked"},
		"tput":    {modes: readModes, judge: judgeTput, evidence: "tput cols runs"},
		"ps": {modes: readModes, judge: judgePs,
			evidence: "ps, ps aux, ps -ef, ps -p 1 run (ps e and -e with other letters show environments; not allowed here)"},
		"true":     {modes: readModes, anyArgs: true, evidence: "\"true\", \"true x\" run; true $FOO asked"},
		"false":    {modes: readModes, anyArgs: true, evidence: "\"false\", \"false x\" run; false $FOO asked"},
		"whoami":   {modes: readModes, ops: opsNone, evidence: "whoami runs; whoami --help asked"},
		"id":       {modes: readModes, anyArgs: true, evidence: "\"id\", \"id -u\", \"id -G root\" run; id $FOO asked"},
		"uname":    {modes: readModes, anyArgs: true, evidence: "\"uname -a\", \"uname -r\", \"uname -n\", \"uname --help\" run; uname $FOO asked"},
		"hostname": {modes: readModes, opts: "-f", ops: opsNone, evidence: "hostname, hostname -f run"},
		"uptime":   {modes: readModes, anyArgs: true, evidence: "\"uptime\", \"uptime -p\", \"uptime -s\" run; uptime $FOO asked"},
		"nproc":    {modes: readModes, anyArgs: true, evidence: "\"nproc\", \"nproc --all\", \"nproc --ignore=1\" run; nproc $FOO asked"},
		"groups":   {modes: readModes, anyArgs: true, evidence: "\"groups\", \"groups root\" run; groups $FOO asked"},
		"locale":   {modes: readModes, anyArgs: true, evidence: "\"locale\", \"locale -a\" run; locale $FOO asked"},
		"free":     {modes: readModes, anyArgs: true, evidence: "\"free -h\", \"free -m\" run; free $FOO asked"},
		"df":       {modes: readModes, opts: "-h", ops: opsRead, evidence: "df -h, df -h ., df / run (this table asks for / : outside)"},
		"cal":      {modes: readModes, anyArgs: true, evidence: "\"cal\", \"cal 2024\", \"cal -y\" run; cal $FOO asked"},
		"date": {modes: readModes, opts: "-u", ops: opsFree, judge: judgeDate,
			evidence: "date, date +%s, date -u, date -d yesterday run; date -s 2020-01-01 asked"},
		"seq":      {modes: readModes, anyArgs: true, evidence: "\"seq 3\", \"seq 1 2 5\", \"seq -f %g 3\", \"seq -w 3\" run; seq $FOO asked"},
		"sleep":    {modes: readModes, anyArgs: true, evidence: "\"sleep 0\", \"sleep 1\", \"sleep 1 2\" run; sleep $FOO asked"},
		"expr":     {modes: readModes, anyArgs: true, evidence: "\"expr 1 + 1\", \"expr 2 '*' 3\", \"expr length abc\" run; expr $FOO asked"},
		"basename": {modes: readModes, anyArgs: true, evidence: "\"basename /x/y.txt\", \"basename ../secret\", \"basename -a /x/y\" run; basename $FOO asked"},
		"dirname":  {modes: readModes, anyArgs: true, evidence: "\"dirname /x/y.txt\", \"dirname ../secret\", \"dirname -z a\" run; dirname $FOO asked"},
		"numfmt": {modes: readModes, opts: "--to= --from=", ops: opsRead,
			evidence: "numfmt --to=si 1000, numfmt --from=auto 1K run; numfmt ../1, numfmt $FOO asked (its operands are paths to Claude Code)"},
		"which": {modes: readModes, opts: "-a -s", ops: opsFree, judge: judgeWhich,
			evidence: "which ls, which -a ls, which -s ls, which ../secret /bin/ls run; which $FOO, which -, which - ls, which -a - asked"},
		"type":     {modes: readModes, opts: "-a -p", ops: opsFree, evidence: "type ls, type -a ls, type -p ls run; type $FOO, command -v ls asked"},
		"realpath": {modes: readModes, ops: opsRead, evidence: "realpath a.txt runs; realpath .., realpath ../secret run too (not checked; this table asks for them)"},
		"readlink": {modes: readModes, opts: "-f", ops: opsRead, evidence: "readlink link, readlink -f link run (link -> ../other: the link itself is inside)"},
		"test":     {modes: readModes, judge: judgeTest, evidence: "test -f a.txt, test -e ../secret, test -d src && ls run"},
		"[":        {modes: readModes, judge: judgeBracket, evidence: "[ -f a.txt ], [ -f ../secret ] run"},

		// acceptEdits only: the file changes Claude Code lets that mode make.
		"touch": {modes: editModes, ops: opsWrite,
			evidence: "touch new.txt, a.txt, new1.txt new2.txt, src/new.txt, newdir/x, \"new file.txt\", .env, package.json run in acceptEdits; touch -c/-a/-m/-d/-t/-r, touch ../x, ~/x, /tmp/x, .git/x, .claude/x, .bashrc, lefthook.yml asked; all asked in default and plan"},
		"mkdir": {modes: editModes, opts: "-p -v --parents", ops: opsWrite, dashdash: true,
			evidence: "mkdir newd, -p a/b/c, -v, --parents, -pv, nd1 nd2, ./nd run in acceptEdits; mkdir ../outd, ~/d, /tmp/d, .idea asked; mkdir -m 700 runs (not allowed here)"},
		"rm": {modes: editModes, opts: "-f -r -R -i -v -d --recursive --force", ops: opsWrite, dashdash: true,
			evidence: "rm a.txt, -f, -r dir, -rf dir, -R, --recursive, -fr, --force, -rfv, -d, -i, -v, -- a.txt, a.txt b.txt, ./dir, dir/ run in acceptEdits; rm -rf ., .., ~, /, {{PROJ}}, src/.., rm ../secret, rm *.txt, rm .git/config, rm -r src/../dir asked"},
		"rmdir": {modes: editModes, opts: "-p --ignore-fail-on-non-empty", ops: opsWrite,
			evidence: "rmdir empty, rmdir dir, rmdir empty dir, rmdir -p empty, rmdir --ignore-fail-on-non-empty empty run in acceptEdits; rmdir ../other, rmdir .git/refs/heads asked"},
		"cp": {modes: editModes, ops: opsWrite, minOps: 2,
			evidence: "cp a.txt c.txt, cp a.txt src/, cp a.txt b.txt src run in acceptEdits; cp with any option (-r, -f, -p, -i, -n, -v, --, -t, -a) asked, as are cp a.txt ../c.txt, cp ../secret s.txt, cp a.txt .git/x, cp .git/config x"},
		"mv": {modes: editModes, ops: opsWrite, minOps: 2,
			evidence: "mv a.txt c.txt, mv a.txt src/, mv dir dir2, mv a.txt b.txt src run in acceptEdits; mv with any option (-f, -n, -v, -i, --, -b, -t) asked, as are mv a.txt ../c.txt, mv ../secret s.txt, mv .git/config x"},
	}
})

// judgeArgs is the default judge: options by r.opts, operands by r.ops.
func judgeArgs(w *unaskedWalk, r *unaskedRule, args []uword) bool {
	if r.anyArgs {
		for _, a := range args {
			if a.tilde || strings.ContainsAny(a.lit, "<>()$`|{}&;\n\r") {
				return false
			}
		}
		return true
	}
	ops, patternGiven, ok := w.splitOpts(r, args)
	if !ok || len(ops) < r.minOps {
		return false
	}
	switch r.ops {
	case opsNone:
		return len(ops) == 0
	case opsFree:
		return true
	case opsRead:
		return w.allRead(ops)
	case opsPattern:
		if !patternGiven {
			if len(ops) == 0 {
				return false
			}
			ops = ops[1:]
		}
		return w.allRead(ops)
	case opsWrite:
		if len(ops) == 0 {
			return false
		}
		for _, o := range ops {
			if !w.writePath(o) {
				return false
			}
		}
		return true
	}
	return false
}

func (w *unaskedWalk) allRead(ops []uword) bool {
	for _, o := range ops {
		if !w.readPath(o) {
			return false
		}
	}
	return true
}

// splitOpts checks the options of args against r and returns the
// operands, and whether an option gave the pattern (r.patternOpts). An
// option r does not list, a value missing, or a path value that readPath
// refuses makes ok false. Options may follow operands (GNU style).
func (w *unaskedWalk) splitOpts(r *unaskedRule, args []uword) (ops []uword, patternGiven, ok bool) {
	ended := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.lit
		// "-" is an operand: stdin for cat and grep (readPath refuses
		// it), a word for echo, a pattern for grep.
		if ended || s == "-" || !strings.HasPrefix(s, "-") {
			ops = append(ops, a)
			continue
		}
		// A glob may only be in the value of --name=VALUE
		// (grep --include=*.txt).
		if a.tilde || a.glob && (!strings.HasPrefix(s, "--") || a.globAt < strings.IndexByte(s, '=') || !strings.Contains(s, "=")) {
			return nil, false, false
		}
		if s == "--" {
			if !r.dashdash {
				return nil, false, false
			}
			ended = true
			continue
		}
		if r.numeric && isDigits(s[1:]) {
			continue
		}
		if strings.HasPrefix(s, "--") {
			name, val, attached := strings.Cut(s, "=")
			kind, known := r.opts.kind(name)
			if !known || kind == optFlag && attached {
				return nil, false, false
			}
			if kind != optFlag && !attached {
				if i++; i >= len(args) {
					return nil, false, false
				}
				val = args[i].lit
				if args[i].glob || args[i].tilde {
					return nil, false, false
				}
			}
			if kind != optFlag && (a.glob && kind == optPath || !w.readPath(uword{lit: val, globAt: -1})) {
				return nil, false, false
			}
			patternGiven = patternGiven || kind != optFlag && contains(r.patternOpts, name)
			continue
		}
		// A cluster of short options: -rn, -A1, -e PATTERN.
		if kind, known := r.opts.kind(s); known && kind == optFlag {
			continue
		}
		for j := 1; j < len(s); j++ {
			name := "-" + s[j:j+1]
			kind, known := r.opts.kind(name)
			if !known {
				return nil, false, false
			}
			if kind == optFlag {
				continue
			}
			val := s[j+1:]
			if val == "" {
				if i++; i >= len(args) {
					return nil, false, false
				}
				if args[i].glob || args[i].tilde {
					return nil, false, false
				}
				val = args[i].lit
			}
			if !w.readPath(uword{lit: val, globAt: -1}) {
				return nil, false, false
			}
			patternGiven = patternGiven || contains(r.patternOpts, name)
			break
		}
	}
	return ops, patternGiven, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// judgeCd: one directory, inside; the line's later relative paths are
// judged from it too. "cd" alone (HOME) and "cd ~" are asked, and so is a
// second cd ("cd src && cd .." : "Multiple directory changes in one
// command require approval"); "cd -" runs but is not allowed here.
func judgeCd(w *unaskedWalk, _ *unaskedRule, args []uword) bool {
	if w.cd || len(args) != 1 || args[0].glob || strings.HasPrefix(args[0].lit, "-") || !w.readPath(args[0]) {
		return false
	}
	w.cd = true
	var next []string
	for _, cwd := range w.cwds {
		next = append(next, join(cwd, args[0].lit))
	}
	w.cwds = append(w.cwds, next...)
	return true
}

// findPrimaries are find's expression words seen to run, with the number
// of arguments each takes.
var findPrimaries = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"-name": 1, "-iname": 1, "-path": 1, "-type": 1, "-maxdepth": 1, "-mindepth": 1, "-size": 1,
		"-mtime": 1, "-regex": 1, "-printf": 1, "-newer": 1,
		"-empty": 0, "-print": 0, "-print0": 0, "-follow": 0, "-o": 0, "-prune": 0, "-not": 0, "-ls": 0,
	}
})

// judgeFind: find [-L] [PATH...] [EXPRESSION]: the paths are read; the
// expression only uses primaries of findPrimaries (-exec, -execdir, -ok,
// -delete, -fprint, -fls, -fprintf are asked).
func judgeFind(w *unaskedWalk, _ *unaskedRule, args []uword) bool {
	i := 0
	for i < len(args) && args[i].lit == "-L" {
		i++
	}
	for ; i < len(args) && !strings.HasPrefix(args[i].lit, "-"); i++ {
		if args[i].lit == "(" || args[i].lit == "!" || !w.readPath(args[i]) {
			return false
		}
	}
	for i < len(args) {
		n, ok := findPrimaries()[args[i].lit]
		if !ok || args[i].glob || i+n >= len(args) {
			return false
		}
		// Claude Code takes the argument of -newer, -path and the like
		// for a path ("find . -path '../*'" is asked); here every
		// argument of a primary must pass readPath.
		if n > 0 && !w.readPath(uword{lit: args[i+1].lit, globAt: -1}) {
			return false
		}
		i += 1 + n
	}
	return true
}

// sedPrint is a sed -n script that prints lines by number: "1p", "1,2p".
var sedPrint = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+(,[0-9]+)?p$`) })

// sedSubst is a plain substitution: s/RE/REPLACEMENT/ with the flags g, p
// or a count, "/" as delimiter and no backslash (no \n in the
// replacement, no escaped delimiter), so that no w, e or other command
// hides in it.
var sedSubst = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^s/[^/\\]*/[^/\\]*/[gp0-9]*$`) })

// judgeSed: every mode, "sed -n LINESp [FILE...]" (also --quiet and -z);
// acceptEdits, "sed [-i] 's/A/B/' FILE..." with the files written (and
// read), also with -E, -r, -ri and "--". Everything else is asked, or
// not allowed here: -e, -f, a regex address, the w and e commands,
// "s|a|b|", -i.bak, -i with -n, -s or -z are asked; --in-place runs, but
// is not allowed here.
func judgeSed(w *unaskedWalk, _ *unaskedRule, args []uword) bool {
	quiet, inPlace, nul, ere, ended := false, false, false, false, false
	var ops []uword
	for _, a := range args {
		switch {
		case a.glob || a.tilde:
			return false
		case ended:
			ops = append(ops, a)
		case a.lit == "-n" || a.lit == "--quiet":
			quiet = true
		case a.lit == "-z":
			nul = true
		case a.lit == "-i" || a.lit == "-ri":
			inPlace = true
			ere = ere || a.lit == "-ri"
		case a.lit == "-E" || a.lit == "-r":
			ere = true
		case a.lit == "--" && !ended:
			ended = true
		case strings.HasPrefix(a.lit, "-"):
			return false
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return false
	}
	script, files := ops[0].lit, ops[1:]
	if quiet && !inPlace && !ere && sedPrint().MatchString(script) {
		return w.allRead(files)
	}
	if !quiet && !nul && !inPlace && len(files) == 0 && sedSubst().MatchString(script) {
		// "cat a.txt | sed 's/a/b/'" runs in every mode.
		return true
	}
	if quiet || nul || w.mode != PermAcceptEdits || !sedSubst().MatchString(script) || len(files) == 0 {
		return false
	}
	for _, f := range files {
		if !w.writePath(f) {
			return false
		}
	}
	return true
}

// jqWords are the jq identifiers a filter may use here: builtins that
// read nothing (env, $ENV, input, include, import, system-like ones are
// not among them: "jq -n env" and "jq -n '$ENV'" are asked).
var jqWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"keys": true, "length": true, "tostring": true, "tonumber": true, "type": true, "add": true,
		"first": true, "last": true, "sort": true, "unique": true, "reverse": true, "not": true,
		"values": true, "map": true, "select": true, "has": true, "to_entries": true,
		"from_entries": true, "true": true, "false": true, "null": true, "and": true, "or": true,
	}
})

var jqIdent = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`) })

// judgeJq: jq [-r -c -s] [--arg NAME VALUE] FILTER [FILE...]: files read;
// the filter holds no "$" and, besides field names (.k), only identifiers
// of jqWords ("jq 'keys'", "jq '.[] | select(.k == 1)'" run). -f, -L,
// --slurpfile, --rawfile and -n are asked or not allowed here.
func judgeJq(w *unaskedWalk, _ *unaskedRule, args []uword) bool {
	var ops []uword
	withArg := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.glob && strings.HasPrefix(a.lit, "-") || a.tilde:
			return false
		case a.lit == "-r" || a.lit == "-c" || a.lit == "-s":
		case a.lit == "--arg":
			// Claude Code skips one word after --arg, not two, and
			// then takes the filter for a file ("jq --arg x 1 '../..'
			// data.json" is asked): with --arg, every word here must
			// pass readPath.
			if i+2 >= len(args) || !w.readPath(args[i+1]) || !w.readPath(args[i+2]) {
				return false
			}
			withArg = true
			i += 2
		case strings.HasPrefix(a.lit, "-"):
			return false
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return false
	}
	filter := ops[0].lit
	if strings.ContainsAny(filter, "$@#\\;") || withArg && !w.readPath(ops[0]) {
		return false
	}
	for _, m := range jqIdent().FindAllStringIndex(filter, -1) {
		// A name after "." is a field (.k, .k.j), not a builtin.
		if id := filter[m[0]:m[1]]; !jqWords()[id] && (m[0] == 0 || filter[m[0]-1] != '.') {
			return false
		}
	}
	return w.allRead(ops[1:])
}

// xargsTargets are the programs "xargs PROG" was seen to run unasked, with
// the options allowed after them.
var xargsTargets = sync.OnceValue(func() map[string]*unaskedRule {
	return map[string]*unaskedRule{
		"wc":   {opts: "-l -c", ops: opsNone},
		"head": {ops: opsNone},
		"grep": {ops: opsPattern},
	}
})

// judgeXargs: "xargs PROG [FLAGS...]" where PROG is in xargsTargets and
// the flags are PROG's (its operands come from stdin, and Claude Code
// does not know them either): "ls | xargs wc -l", "xargs wc -c",
// "xargs head", "xargs grep alpha" run; "xargs cat", "xargs rm",
// "xargs --version" and bare xargs are asked; "xargs -0 wc" runs but is
// not allowed here.
func judgeXargs(w *unaskedWalk, _ *unaskedRule, args []uword) bool {
	if len(args) == 0 || args[0].glob {
		return false
	}
	r, ok := xargsTargets()[args[0].lit]
	if !ok {
		return false
	}
	ops, _, ok := w.splitOpts(r, args[1:])
	if r.ops == opsPattern {
		return ok && len(ops) == 1
	}
	return ok && len(ops) == 0
}

// judgeWhich: which's operands are names, but "-" among them is asked
// ("which -", "which -a - ls"; "echo -", "type -" and "grep - a.txt" run).
func judgeWhich(w *unaskedWalk, r *unaskedRule, args []uword) bool {
	for _, a := range args {
		if a.lit == "-" {
			return false
		}
	}
	return judgeArgs(w, r, args)
}

// judgePrintf: no -v (it assigns a variable), and no %n in the format.
func judgePrintf(_ *unaskedWalk, _ *unaskedRule, args []uword) bool {
	if len(args) == 0 || strings.HasPrefix(args[0].lit, "-") {
		return false
	}
	return !strings.Contains(args[0].lit, "%n")
}

// judgeDate: date [-u] [+FORMAT]; -s (set the clock) and the rest are
// asked or not allowed here.
func judgeDate(_ *unaskedWalk, _ *unaskedRule, args []uword) bool {
	for i := 0; i < len(args); i++ {
		switch a := args[i].lit; {
		case a == "-d" && i+1 < len(args) && !strings.HasPrefix(args[i+1].lit, "-"):
			// "date -d -" is asked; other values starting with "-"
			// were not measured.
			i++
		case a != "-u" && !strings.HasPrefix(a, "+"):
			return false
		}
	}
	return true
}

// judgeTr: tr [-d|-s] SET [SET]: Claude Code takes the words after the
// sets (one with -d, else two) for files; here there may be none, and the
// input comes from a redirection or a pipe.
func judgeTr(w *unaskedWalk, r *unaskedRule, args []uword) bool {
	ops, _, ok := w.splitOpts(r, args)
	if !ok || len(ops) == 0 {
		return false
	}
	sets := 2
	for _, a := range args {
		if a.lit == "-d" {
			sets = 1
		}
	}
	return len(ops) <= sets
}

// judgeHistory: history, or history N (history -c clears it: asked).
func judgeHistory(_ *unaskedWalk, _ *unaskedRule, args []uword) bool {
	return len(args) == 0 || len(args) == 1 && isDigits(args[0].lit)
}

// judgeNoSlash: man and help with names, not paths (Claude Code refuses
// a "/", "\" or "~" in their operands).
func judgeNoSlash(w *unaskedWalk, r *unaskedRule, args []uword) bool {
	for _, a := range args {
		if a.glob || a.tilde || strings.ContainsAny(a.lit, "/\\~") {
			return false
		}
	}
	return judgeArgs(w, r, args)
}

// judgeTput: one capability that only reports (tput cols); init, reset,
// clear and the like change the terminal.
func judgeTput(_ *unaskedWalk, _ *unaskedRule, args []uword) bool {
	return len(args) == 1 && (args[0].lit == "cols" || args[0].lit == "lines" || args[0].lit == "colors")
}

// judgePs: the forms seen to run: ps, ps aux, ps -ef, ps -p PID.
func judgePs(_ *unaskedWalk, _ *unaskedRule, args []uword) bool {
	var s []string
	for _, a := range args {
		if a.glob || a.tilde {
			return false
		}
		s = append(s, a.lit)
	}
	switch j := strings.Join(s, " "); {
	case j == "" || j == "aux" || j == "-ef":
		return true
	case len(s) == 2 && s[0] == "-p":
		return isDigits(s[1])
	}
	return false
}

// testUnary are the unary file tests seen to run (test -f, -e, -d).
var testUnary = sync.OnceValue(func() map[string]bool { return map[string]bool{"-f": true, "-e": true, "-d": true} })

// judgeTest: test with one unary file test; the operand is only stat()ed
// and Claude Code does not check it ("[ -f ../secret ]" runs). An operand
// starting with "-" is asked here: "test -f -", "test -e -" and
// "test -d - && ls" are asked ("[ -f - ]" and "[ -f -x ]" run).
func judgeTest(_ *unaskedWalk, _ *unaskedRule, args []uword) bool {
	return len(args) == 2 && testUnary()[args[0].lit] && !args[1].glob && !args[1].tilde && !strings.HasPrefix(args[1].lit, "-")
}

// judgeBracket: "[ -f FILE ]", as judgeTest.
func judgeBracket(w *unaskedWalk, r *unaskedRule, args []uword) bool {
	n := len(args)
	return n > 0 && args[n-1].lit == "]" && !args[n-1].glob && judgeTest(w, r, args[:n-1])
}

// gitRules are the git subcommands Claude Code 2.1.330 runs unasked, with
// the options seen to run. Their operands (revisions, paths) are judged as
// paths read, which is stricter than the host for revisions ("HEAD",
// "HEAD~1" and "main" are names inside the cwd, so they pass).
var gitRules = sync.OnceValue(func() map[string]*unaskedRule {
	return map[string]*unaskedRule{
		"status": {opts: "-s --short -b --branch --porcelain", ops: opsNone,
			evidence: "git status, -s, --short run; git status -uno asked"},
		"log": {opts: "--oneline -n= -p --stat --format= --pretty= --all --graph --since= -S= --name-only", numeric: true, ops: opsRead, dashdash: true,
			evidence: "git log, --oneline -n 1, -p, --stat, --format=%H, --pretty=format:%s, -1, --all --graph, --since=yesterday, -- a.txt, -S alpha, --name-only run; git log --output=out.txt asked"},
		"diff": {opts: "--stat --cached --name-only --no-index", ops: opsRead, dashdash: true,
			evidence: "git diff, --stat, a.txt, HEAD, --cached, --name-only, --no-index a.txt b.txt run; git diff --output=, --ext-diff, a.txt ../secret, --no-index a.txt ../secret asked"},
		"show": {opts: "--stat", ops: opsRead,
			evidence: "git show, HEAD:a.txt, --stat, HEAD~1 run; git show --output=out.txt asked"},
		"branch": {opts: "-a -v --show-current", ops: opsNone,
			evidence: "git branch, -a, -v, --show-current run; git branch newb, git branch -D main asked"},
		"tag":          {opts: "-l", ops: opsNone, evidence: "git tag, git tag -l run; git tag v1 asked"},
		"rev-parse":    {opts: "--show-toplevel --abbrev-ref", ops: opsRead, evidence: "git rev-parse HEAD, --show-toplevel, --abbrev-ref HEAD run"},
		"ls-files":     {opts: "-m", ops: opsRead, evidence: "git ls-files, -m run (git ls-files ../other runs too: not checked; this table asks)"},
		"blame":        {opts: "-L=", ops: opsRead, evidence: "git blame a.txt, -L 1,2 a.txt run (git blame ../secret runs too: not checked; this table asks)"},
		"remote":       {opts: "-v", ops: opsNone, evidence: "git remote, git remote -v run; git remote add, git remote show origin asked"},
		"grep":         {opts: "-n", ops: opsPattern, evidence: "git grep alpha, git grep -n alpha run; git grep alpha ../other asked"},
		"describe":     {opts: "--tags", ops: opsNone, evidence: "git describe --tags runs"},
		"cat-file":     {opts: "-p", ops: opsRead, evidence: "git cat-file -p HEAD runs"},
		"reflog":       {ops: opsNone, evidence: "git reflog runs"},
		"shortlog":     {opts: "-s -n", ops: opsNone, evidence: "git shortlog -sn runs"},
		"merge-base":   {ops: opsRead, evidence: "git merge-base HEAD HEAD runs"},
		"rev-list":     {opts: "--count", ops: opsRead, evidence: "git rev-list --count HEAD runs"},
		"for-each-ref": {ops: opsNone, evidence: "git for-each-ref runs"},
	}
})

// gitPairs are the git commands of two words that run unasked: "git stash
// list", "git stash show", "git worktree list", "git config --get NAME".
// (git stash, git config user.name, git config --list, git config
// --get-all are asked.)
func gitPair(args []uword) bool {
	if len(args) < 2 {
		return false
	}
	switch args[0].lit + " " + args[1].lit {
	case "stash list", "stash show", "worktree list":
		return len(args) == 2
	case "config --get":
		return len(args) == 3 && !strings.HasPrefix(args[2].lit, "-")
	}
	return false
}

// gitCall judges "git SUBCOMMAND ...": no option before the subcommand
// (git -C src status, git --no-pager log, git -c core.pager=cat log, git
// --version asked), a subcommand of gitRules or gitPair, in every mode.
// Git commands that write (add, commit, stash, checkout, fetch, branch
// NAME, tag NAME, config NAME VALUE) are asked in every mode.
func (w *unaskedWalk) gitCall(args []uword) bool {
	for _, a := range args {
		if a.glob || a.tilde {
			return false
		}
	}
	if len(args) == 0 || !args[0].plain || len(args) > 1 && !args[1].plain && gitPair(args) {
		return false
	}
	w.git = true
	if gitPair(args) {
		return true
	}
	r, ok := gitRules()[args[0].lit]
	if !ok {
		return false
	}
	for _, a := range args[1:] {
		name, val, _ := strings.Cut(a.lit, "=")
		if (name == "--format" || name == "--pretty") && !gitFormatOK(val) {
			return false
		}
	}
	return judgeArgs(w, r, args[1:])
}

// gitFormatNames are the pretty formats git defines itself; any other
// name may be an alias from the git configuration.
var gitFormatNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"oneline": true, "short": true, "medium": true, "full": true, "fuller": true, "email": true, "raw": true}
})

// gitFormatOK reports whether a --format or --pretty value is one Claude
// Code lets run: a named format, or placeholders that show commit data (a
// signature placeholder, %G..., makes git run gpg, and "%(" ones are not
// allowed here).
func gitFormatOK(v string) bool {
	if gitFormatNames()[v] {
		return true
	}
	v = strings.TrimPrefix(strings.TrimPrefix(v, "format:"), "tformat:")
	if !strings.Contains(v, "%") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] != '%' {
			continue
		}
		if i+1 >= len(v) || !strings.ContainsRune("HhTtPpsanedcrb%", rune(v[i+1])) {
			return false
		}
		i++
	}
	return true
}

// gitRepoSafe reports whether git may run unasked in the line's cwd:
// Claude Code 2.1.330 asks before git runs in a directory with bare-repo
// indicators (HEAD, objects, refs outside a .git directory) or whose .git
// is a file or a link that redirects elsewhere. Stricter here: no HEAD in
// the cwd at all, and .git, if there, a directory.
func (w *unaskedWalk) gitRepoSafe() bool {
	if w.env.Lstat == nil {
		return false
	}
	for _, cwd := range w.cwds {
		if _, err := w.env.Lstat(join(cwd, "HEAD")); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		fi, err := w.env.Lstat(join(cwd, ".git"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || !fi.IsDir():
			return false
		}
	}
	return true
}
