package hookio

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// unaskedWorld is the project of the measurements
// (testdata/hosts/claude/unasked.md), as RunsUnasked sees it: the working
// directory /p, a link /p/link -> /o outside, a repository in /p/.git,
// links inside to it (/p/gitlink) and to /p itself (/p/self).
type unaskedWorld struct {
	links map[string]string // absolute link -> absolute target
	files map[string]fs.FileMode
}

var testWorld = unaskedWorld{
	links: map[string]string{"/p/link": "/o", "/p/gitlink": "/p/.git", "/p/self": "/p"},
	files: map[string]fs.FileMode{"/p/.git": fs.ModeDir, "/p/a.txt": 0, "/p/src": fs.ModeDir,
		"/bare/HEAD": 0, "/wt/.git": 0, "/lnk/.git": fs.ModeSymlink},
}

// resolve follows the links of the world, component by component.
func (u unaskedWorld) resolve(p string) string {
	out := "/"
	for _, e := range strings.Split(strings.TrimPrefix(path.Clean(p), "/"), "/") {
		out = path.Join(out, e)
		if t, ok := u.links[out]; ok {
			out = t
		}
	}
	return out
}

func (u unaskedWorld) env(cwd string) UnaskedEnv {
	return UnaskedEnv{
		Cwd:     cwd,
		Roots:   []string{"/p", "/bare", "/wt", "/lnk"},
		Resolve: u.resolve,
		Lstat: func(p string) (fs.FileInfo, error) {
			m, ok := u.files[p]
			if !ok {
				return nil, &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
			}
			return fakeInfo{name: path.Base(p), mode: m}, nil
		},
	}
}

type fakeInfo struct {
	name string
	mode fs.FileMode
}

func (f fakeInfo) Name() string       { return f.name }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.mode.IsDir() }
func (f fakeInfo) Sys() any           { return nil }

// unaskedCase is a command and the modes in which Claude Code 2.1.330 ran
// it unasked: "DPA" = default, plan and acceptEdits, "A" = acceptEdits
// only, "" = asked in every mode. Unless a comment says otherwise, the
// answer is the one measured (testdata/hosts/claude/unasked.md); "(host
// runs)" marks a form the host runs that the table asks about, on purpose.
type unaskedCase struct {
	cmd  string
	runs string
}

var unaskedCases = []unaskedCase{
	// cat and the like: paths inside, links followed, no ~, no .. after a name.
	{"cat a.txt", "DPA"}, {"cat -n a.txt", "DPA"}, {"cat -A a.txt", "DPA"}, {"cat --show-all a.txt", "DPA"},
	{"cat a.txt b.txt", "DPA"}, {"cat ./src/main.go", "DPA"}, {"cat missing.txt", "DPA"},
	{"cat /p/a.txt", "DPA"}, {`cat "/p/a.txt"`, "DPA"}, {"cat 'a.txt'", "DPA"}, {`cat a\.txt`, "DPA"},
	{"cat ../p/a.txt", "DPA"}, {"cat ./../p/a.txt", "DPA"},
	{"cat ../secret", ""}, {`cat "../secret"`, ""}, {"cat ../other/o.txt", ""},
	{"cat '~/h.txt'", ""}, {`cat "~/h.txt"`, ""}, {`cat \~/h.txt`, ""}, // a quoted ~ is home too
	{"cat {\"/etc/passwd\",x}", ""}, {"grep -f ~/h.txt a.txt", ""}, {"ls\nls", "DPA"}, {"ls\n", "DPA"},
	{"cat a.txt\tb.txt", "DPA"}, {"echo 'a\nb'", ""}, // a newline in a word: not measured
	{"'cat' a.txt", ""}, {"\\cat a.txt", ""}, {"git 'status'", ""}, {"cat -", ""}, {"cat é.txt", ""}, // host runs
	// Option values are judged as paths, as Claude Code takes most words
	// for paths.
	{"ls -I ../x", ""}, {"sort -t / -k 1 a.txt", ""}, {"stat -c /%s a.txt", ""}, {"head -n ~1 a.txt", ""},
	{"cut -c1-3 -- ../secret", ""}, {"git log --since=2020/01/01", "DPA"}, {"rg ../x a.txt", "DPA"},
	{"grep -e ../x a.txt", ""}, {"ls --hide=../x", ""}, {"tree -I ../x", ""}, {"rg -g '../*' alpha", ""}, // host runs
	{"grep --include=../x -r alpha .", ""}, {"grep --exclude-dir=/etc -r alpha .", ""}, {"cut -d / -f 1 a.txt", ""}, // host runs
	{"git log -S ../x", ""}, {"git log --format=../%H", ""}, {"git blame -L /alpha/,+1 a.txt", ""}, // host runs
	{"find . -name '../x'", ""}, {"find . -regex '/etc.*'", ""}, {"jq --arg x ../y .k data.json", ""}, // host runs
	{"tr a b ../secret", ""}, {"tr -d a ../secret", ""}, {"numfmt ../1", ""}, {"man ..", ""}, {"find . -path '../*'", ""},
	{"jq --arg x 1 '../..' data.json", ""},
	{"tr a b a.txt", ""}, // host runs
	{"cat -- a.txt", "DPA"}, {"cat .env", "DPA"}, {`cat "a b"`, "DPA"}, {"cat a'.txt'", "DPA"}, {"ls '*'", "DPA"}, {"cat /etc/passwd", ""}, {"cat ~/h.txt", ""},
	{"cat $HOME/h.txt", ""}, {`cat "$HOME/h.txt"`, ""}, {"cat link/o.txt", ""}, {"cat src/../a.txt", ""},
	{"cat proj-nothing/../a.txt", ""}, {"cat a.txt ~/h.txt", ""}, {"cat ~", ""},
	{"cat {a,b}.txt", ""}, {"cat a.txt{,}", ""}, {"cat $(echo a.txt)", ""}, {"cat $PWD/a.txt", ""},
	{`cat "$PWD/a.txt"`, ""}, // host runs
	// globs: the directory before the glob is judged.
	{"cat *.txt", "DPA"}, {"cat src/*.go", "DPA"}, {"cat *", "DPA"}, {"cat l*/o.txt", "DPA"}, {"cat [ab].txt", "DPA"},
	{"cat link/*", ""}, {"cat ../*", ""}, {"cat /etc/pass*", ""},
	{"head a.txt", "DPA"}, {"head -n 1 a.txt", "DPA"}, {"head -1 a.txt", "DPA"}, {"head -c 3 a.txt", "DPA"},
	{"head --lines=1 a.txt", "DPA"}, {"head ../secret", ""}, {"head -q a.txt", ""}, // -q: not measured
	{"tail a.txt", "DPA"}, {"tail -n +2 a.txt", "DPA"}, {"tail --pid=1 a.txt", "DPA"},
	{"tail ../secret", ""}, {"tail -f /dev/null", ""},
	{"tail -F a.txt", ""}, // host runs it (it follows the file and never ends)
	{"wc a.txt", "DPA"}, {"wc -l a.txt src/main.go", "DPA"}, {"wc -l *.txt", "DPA"}, {"wc ../secret", ""},
	{"wc --files0-from=list.txt", ""}, // host runs
	{"stat a.txt", "DPA"}, {"stat -c %s a.txt", "DPA"}, {"stat ../secret", ""}, {"stat -L link", ""},
	{"file a.txt", "DPA"}, {"file -b a.txt", "DPA"}, {"file ../secret", ""}, {"file link", ""}, {"file -z a.txt", ""},
	{"strings a.txt", "DPA"}, {"strings ../secret", ""},
	{"od -c a.txt", "DPA"}, {"od -c ../secret", ""},
	{"hexdump -C a.txt", "DPA"}, {"hexdump ../secret", ""}, {"xxd a.txt", ""},
	{"nl a.txt", "DPA"}, {"nl ../secret", ""},
	{"tac a.txt", "DPA"}, {"tac ../secret", ""},
	{"rev a.txt", "DPA"}, {"rev ../secret", ""},
	{"cut -c1-3 a.txt", "DPA"}, {"cut -d , -f 1 a.txt", "DPA"}, {"cut -f1 ../secret", ""},
	{"paste a.txt b.txt", "DPA"}, {"paste a.txt ../secret", ""},
	{"column -t a.txt", "DPA"}, {"column -t ../secret", ""},
	{"fold -w 3 a.txt", "DPA"}, {"fold -w 3 ../secret", ""},
	{"fmt a.txt", "DPA"}, {"fmt ../secret", ""},
	{"expand a.txt", "DPA"}, {"expand ../secret", ""},
	{"tsort a.txt", "DPA"}, {"tsort ../secret", ""},
	{"pr a.txt", "DPA"}, {"pr ../secret", ""},
	{"diff a.txt b.txt", "DPA"}, {"diff -u a.txt b.txt", "DPA"}, {"diff -r src dir", "DPA"}, {"diff a.txt ../secret", ""},
	{"cmp a.txt b.txt", "DPA"}, {"cmp a.txt ../secret", ""},
	{"comm a.txt b.txt", "DPA"}, {"comm a.txt ../secret", ""},
	{"md5sum a.txt", "DPA"}, {"md5sum ../secret", ""},
	{"sha1sum a.txt", "DPA"}, {"sha1sum ../secret", ""},
	{"sha256sum a.txt", "DPA"}, {"sha256sum -c list.txt", ""}, // host runs
	{"cksum a.txt", ""},
	{"base64 a.txt", "DPA"}, {"base64 -d list.txt", "DPA"}, {"base64 ../secret", ""},
	{"sort a.txt", "DPA"}, {"sort -r a.txt b.txt", "DPA"}, {"sort -t , -k 1 a.txt", "DPA"},
	{"sort -o out.txt a.txt", ""}, {"sort --output=out.txt a.txt", ""}, {"sort -T /tmp a.txt", ""},
	{"sort --compress-program=gzip a.txt", ""}, {"sort ../secret", ""},
	{"join a.txt b.txt", ""}, {"shuf a.txt", ""}, {"split a.txt", ""},
	{"du -sh .", "DPA"}, {"du --max-depth=1", "DPA"}, {"du -sh ..", ""}, // host runs
	{"df -h", "DPA"}, {"df /", ""}, // host runs
	{"tree", "DPA"}, {"tree -L 1", "DPA"}, {"tree ..", ""}, // host runs
	{"tree -o out.txt", ""}, {"tree -R", ""},
	{"ls", "DPA"}, {"ls -la", "DPA"}, {"ls -R", "DPA"}, {"ls --color=auto", "DPA"}, {"ls -I x", "DPA"},
	{"ls *", "DPA"}, {"ls -d */", "DPA"}, {"ls .git", "DPA"}, {"ls /p", "DPA"},
	{"ls ..", ""}, {"ls ~", ""}, {"ls /", ""}, {"ls link", ""}, {"ls $FOO", ""}, {`ls "$PWD"`, ""},
	{"grep alpha a.txt", "DPA"}, {"grep -r alpha .", "DPA"}, {"grep -r alpha", "DPA"}, {"grep -rn alpha src", "DPA"},
	{"grep -A 1 alpha a.txt", "DPA"}, {"grep -e alpha a.txt", "DPA"}, {"grep --include=*.txt -r alpha .", "DPA"},
	{"grep -f list.txt a.txt", "DPA"}, {"grep alpha", "DPA"}, {"grep alpha *", "DPA"}, {"grep /etc a.txt", "DPA"},
	{"grep -r alpha ..", ""}, {"grep alpha ../secret", ""}, {"grep root /etc/passwd", ""},
	{"grep -f ../secret a.txt", ""}, {"grep -e alpha ../secret", ""}, {"grep -r alpha /tmp", ""},
	{"egrep 'al|be' a.txt", "DPA"}, {"egrep x ../secret", ""},
	{"fgrep alpha a.txt", "DPA"}, {"fgrep x ../secret", ""},
	{"rg alpha", "DPA"}, {"rg alpha src", "DPA"}, {"rg -g '*.txt' alpha", "DPA"}, {"rg -f list.txt a.txt", "DPA"},
	{"rg alpha ..", ""}, {"rg alpha ~", ""}, {"rg --pre cat alpha", ""}, {"rg --files", ""}, {"rg -z alpha", ""},
	{"rg -r X alpha a.txt", ""},
	{"find .", "DPA"}, {"find . -name '*.go'", "DPA"}, {"find src -type f", "DPA"}, {"find . -newer a.txt", "DPA"},
	{"find -L . -name a.txt", "DPA"}, {"find . -name a.txt -o -name b.txt", "DPA"}, {"find . -printf '%p\\n'", "DPA"},
	{"find .. -name o.txt", ""}, {"find / -maxdepth 0", ""}, {"find ~ -maxdepth 1", ""},
	{"find . -newer ../secret", ""}, // not measured: -newer's file is read
	{"find . -name a.txt -exec cat {} \\;", ""}, {"find . -name a.txt -execdir cat {} \\;", ""},
	{"find . -name a.txt -ok cat {} \\;", ""}, {"find dir -delete", ""}, {"find . -fprint out.txt", ""},
	{"find . -fls out.txt", ""}, {"find . -fprintf out.txt '%p'", ""}, {"find . -name", ""},
	{"cd src", "DPA"}, {"cd src && ls", "DPA"}, {"cd src && cat main.go", "DPA"}, {"cd /p && ls", "DPA"},
	{"cd src; ls", "DPA"}, {"cd . && ls", "DPA"},
	{"cd ..", ""}, {"cd .. && ls", ""}, {"cd /", ""}, {"cd ~ && ls", ""}, {"cd", ""}, {"cd ~", ""},
	{"cd src && cd ..", ""}, {"ls; cd ..", ""}, {"cd -", ""}, // host runs cd -
	{"cd link", ""}, {"cd src && cat ../../secret", ""},
	{"sed -n 1p a.txt", "DPA"}, {"sed -n '1,2p' a.txt", "DPA"}, {"sed --quiet 1p a.txt", "DPA"},
	{"sed -z -n 1p a.txt", "DPA"}, {"sed -n 1p", "DPA"}, {"cat a.txt | sed -n 1p", "DPA"},
	{"sed -n 1p ../secret", ""}, {"sed -n -e 1p a.txt", ""}, {"sed -n '/alpha/p' a.txt", ""}, {"sed -n 'w out.txt' a.txt", ""},
	{"sed -f list.txt a.txt", ""}, {"sed -E -n 's/a/b/p' a.txt", ""},
	{"sed 's/a/b/' a.txt", "A"}, {"sed -i 's/a/b/' a.txt", "A"}, {"sed -i 's/a/b/g' a.txt", "A"},
	{"sed -i 's/a/b/' a.txt b.txt", "A"}, {"sed -i'' 's/a/b/' a.txt", "A"},
	{"sed -i.bak 's/a/b/' a.txt", ""}, {"sed -e 1d a.txt", ""}, {"sed 1e a.txt", ""}, {"sed 's/a/b/w out.txt' a.txt", ""},
	{"sed -i -e 's/a/b/' a.txt", ""}, {"sed -i -n 1p a.txt", ""}, {"sed -i '1d' a.txt", ""}, {"sed -i 's/a/b/e' a.txt", ""},
	{"sed -i 's|a|b|' a.txt", ""}, {"sed -z -i 's/a/b/' a.txt", ""}, {"sed -s -i 's/a/b/' a.txt", ""},
	{"sed -i 's/a/b/' ../secret", ""}, {"sed -i 's/a/b/' *.txt", ""}, {"sed -i 's/a/b/' .git/config", ""},
	{"sed -E -i 's/a/b/' a.txt", "A"}, {"sed -ri 's/a/b/' a.txt", "A"}, {"sed -i -- 's/a/b/' a.txt", "A"},
	{"sed -E 's/a/b/'", "DPA"}, {"cat a.txt | sed 's/a/b/'", "DPA"}, {"sed -E -n 's/a/b/p'", ""},
	{"sed --in-place 's/a/b/' a.txt", ""}, // host runs in acceptEdits
	{"jq . data.json", "DPA"}, {"jq -r .k data.json", "DPA"}, {"jq -c . data.json", "DPA"}, {"jq -s . data.json", "DPA"},
	{"jq --arg x 1 '.k' data.json", "DPA"}, {"jq -r '.k|tostring' data.json", "DPA"}, {"jq '.k' < data.json", "DPA"},
	{"jq . ../secret", ""}, {"jq -n env", ""}, {"jq -n '$ENV'", ""}, {"jq -f list.txt data.json", ""}, {"jq -L . . data.json", ""},
	{"jq --slurpfile x ../secret . data.json", ""}, {"jq 'env' data.json", ""}, {"jq '\"env\"' data.json", ""},
	{"ls | xargs wc -l", "DPA"}, {"ls | xargs wc -c", "DPA"}, {"ls | xargs head", "DPA"}, {"ls | xargs grep alpha", "DPA"},
	{"find . -name '*.txt' | xargs grep alpha", "DPA"}, {"echo a.txt | xargs cat", ""},
	{"ls | xargs -0 wc", ""}, // host runs {"echo a.txt | xargs rm", ""}, {"xargs --version", ""},
	{"xargs", ""}, {"ls | xargs wc -l ../secret", ""},
	{"awk '{print $1}' a.txt", ""}, {"awk 'NR==1' a.txt", ""},
	// Programs without file operands; a variable among their words is
	// asked ("seq $FOO" ... "A variable in this command can't be checked
	// before it runs").
	{"type $FOO", ""}, {"groups $FOO", ""}, {"numfmt $FOO", ""}, {"sleep $FOO", ""}, {"uptime $FOO", ""},
	{"false $FOO", ""}, {"seq $FOO", ""}, {"locale $FOO", ""}, {"cal $FOO", ""}, {"id $FOO", ""}, {"free $FOO", ""},
	{"nproc $FOO", ""}, {"true $FOO", ""}, {"dirname $FOO", ""}, {"expr $FOO", ""}, {"basename $FOO", ""},
	{"which $FOO", ""}, {"uname $FOO", ""}, {"date $FOO", ""}, {"printf $FOO", ""},
	{"hostname newname", ""}, {"hostname -F ../secret", ""}, {"pgrep $FOO", ""},
	{"true x", "DPA"}, {"uname --help", "DPA"}, {"seq -w 3", "DPA"}, {"expr length abc", "DPA"}, {"id -G root", "DPA"},
	{"expr '(' 1 ')'", ""}, {"seq '1;2'", ""}, {"true '<x'", ""}, // host runs: the table refuses these characters
	{"tr a b < a.txt", "DPA"}, {"tr -d a < a.txt", "DPA"}, {"tr a-z A-Z", "DPA"}, {"tr -s a < a.txt", "DPA"}, {"tr a b < ../secret", ""},
	{"uniq -c", "DPA"}, {"uniq -u", "DPA"}, {"cat a.txt | sort | uniq", "DPA"}, {"uniq a.txt", ""}, {"uniq -c a.txt", ""}, {"uniq a.txt out.txt", ""},
	{"pgrep bash", "DPA"}, {"pgrep -f bash", "DPA"}, {"pgrep -x bash", "DPA"},
	{"history", "DPA"}, {"history 5", "DPA"}, {"history -c", ""},
	{"help cd", "DPA"}, {"help /x", ""}, {"help -d cd", ""}, // host runs help -d
	{"man ls", "DPA"}, {"man -k ls", "DPA"}, {"man ./x.1", ""}, {"man -P cat ls", ""},
	{"tput cols", "DPA"}, {"tput reset", ""}, {"tput clear", ""},
	{"ps", "DPA"}, {"ps aux", "DPA"}, {"ps -ef", "DPA"}, {"ps -p 1", "DPA"}, {"ps e", ""}, {"ps -e -o pid,cmd", ""},
	{"date -d yesterday", "DPA"},
	{"echo hello", "DPA"}, {"echo -n x", "DPA"}, {"echo ~", "DPA"}, {"echo *", "DPA"}, {"echo '$(x)'", "DPA"},
	{"echo $FOO", ""}, {"echo ${HOME}", ""}, {"echo $PWD", ""}, {`echo "$(whoami)"`, ""}, {"echo `whoami`", ""},
	{"echo $(cat a.txt)", ""}, {"echo $((1+1))", ""},
	{"echo $HOME", ""}, {`echo "$HOME"`, ""}, // host runs
	{"printf 'x\\n'", "DPA"}, {"printf '%s\\n' a b", "DPA"}, {"printf '%q' x", "DPA"},
	{"printf -v v x", ""}, {"printf '%n' x", ""},
	{"pwd", "DPA"}, {"pwd -P", ""},
	{"true", "DPA"}, {"false", "DPA"}, {"true && false", "DPA"},
	{"whoami", "DPA"}, {"whoami --help", ""},
	{"id", "DPA"}, {"id -u", "DPA"}, {"uname -a", "DPA"}, {"hostname", "DPA"}, {"hostname -f", "DPA"},
	{"uptime", "DPA"}, {"nproc", "DPA"}, {"nproc --all", "DPA"}, {"groups", "DPA"}, {"locale", "DPA"}, {"free -h", "DPA"},
	{"cal", "DPA"}, {"seq 3", "DPA"}, {"sleep 0", "DPA"}, {"expr 1 + 1", "DPA"}, {"basename /x/y.txt", "DPA"},
	{"dirname ../secret", "DPA"}, {"numfmt --to=si 1000", "DPA"},
	{"date", "DPA"}, {"date +%s", "DPA"}, {"date -u", "DPA"}, {"date -s 2020-01-01", ""}, {"date -d -", ""},
	{"which -", ""}, {"which -a - ls", ""}, {"test -f -", ""}, {"test -d - && ls", ""}, {"[ -f -x ]", ""}, {"[ -f - ]", ""}, // the last two: host runs
	{"echo -", "DPA"}, {"true -", "DPA"}, {"type -", "DPA"}, {"grep - a.txt", "DPA"}, {"which ../secret /bin/ls", "DPA"}, // measured in default
	{"which ls", "DPA"}, {"which -a ls", "DPA"}, {"which -s ls", "DPA"}, {"type -p ls", "DPA"}, {"type ls", "DPA"}, {"command -v ls", ""},
	{"realpath a.txt", "DPA"}, {"realpath ..", ""}, // host runs
	{"readlink a.txt", "DPA"}, {"readlink ../secret", ""}, // host runs: readlink's path is not checked
	{"readlink link", ""}, {"readlink -f link", ""}, // host runs; the table judges where link leads
	{"test -f a.txt", "DPA"}, {"test -e ../secret", "DPA"}, {"[ -f a.txt ]", "DPA"}, {"[ -f ../secret ]", "DPA"},
	{"test -d src && ls", "DPA"}, {"if [ -f a.txt ]; then cat a.txt; fi", "DPA"},
	{"test -v X", ""}, {"[ -f a.txt", ""}, {"[[ -f a.txt ]]", ""}, // host runs [[ ]]
	{"env", ""}, {"printenv HOME", ""}, {"set", ""}, {"export", ""}, {"alias", ""}, {"eval ls", ""}, {"read x", ""},
	{"less a.txt", ""}, {"vim a.txt", ""}, {"tee out.txt < a.txt", ""}, {"yes | head -1", ""},
	{"npm --version", ""}, {"go version", ""}, {"python3 -c 'print(1)'", ""}, {"make", ""}, {"tar czf a.tgz dir", ""},
	{"/bin/ls", ""}, // not measured
	// git: in a repository whose .git is a directory.
	{"git status", "DPA"}, {"git status --short", "DPA"}, {"git status -uno", ""},
	{"git log", "DPA"}, {"git log --oneline -n 1", "DPA"}, {"git log -p", "DPA"}, {"git log -1", "DPA"},
	{"git log --format=%H", "DPA"}, {"git log --pretty=format:%s", "DPA"}, {"git log -- a.txt", "DPA"},
	{"git log --output=out.txt", ""}, {"git log --format=%G?", ""}, {"git log --pretty=myalias", ""},
	{"git diff", "DPA"}, {"git diff --stat", "DPA"}, {"git diff HEAD", "DPA"}, {"git diff --no-index a.txt b.txt", "DPA"},
	{"git diff --output=out.txt", ""}, {"git diff --ext-diff", ""}, {"git diff a.txt ../secret", ""},
	{"git show", "DPA"}, {"git show HEAD:a.txt", "DPA"}, {"git show --output=out.txt", ""},
	{"git branch", "DPA"}, {"git branch -a", "DPA"}, {"git branch newb", ""}, {"git branch -D main", ""},
	{"git tag", "DPA"}, {"git tag -l", "DPA"}, {"git tag v1", ""},
	{"git rev-parse HEAD", "DPA"}, {"git rev-parse --show-toplevel", "DPA"}, {"git rev-parse --git-path x", ""},
	{"git ls-files", "DPA"}, {"git ls-files ../other", ""}, // host runs
	{"git blame a.txt", "DPA"}, {"git blame ../secret", ""}, // host runs
	{"git remote", "DPA"}, {"git remote -v", "DPA"}, {"git remote add o ../other", ""}, {"git remote show origin", ""},
	{"git grep alpha", "DPA"}, {"git grep -n alpha", "DPA"}, {"git grep alpha ../other", ""},
	{"git describe --tags", "DPA"}, {"git describe --dirty", ""},
	{"git cat-file -p HEAD", "DPA"}, {"git cat-file --batch", ""},
	{"git reflog", "DPA"}, {"git reflog expire", ""},
	{"git shortlog -sn", "DPA"}, {"git shortlog -e", ""},
	{"git merge-base HEAD HEAD", "DPA"}, {"git merge-base ../x HEAD", ""},
	{"git rev-list --count HEAD", "DPA"}, {"git rev-list --objects HEAD", ""},
	{"git for-each-ref", "DPA"}, {"git for-each-ref --format=x", ""},
	{"git stash list", "DPA"}, {"git stash show", "DPA"}, {"git stash", ""}, {"git stash pop", ""},
	{"git worktree list", "DPA"}, {"git worktree add x", ""},
	{"git config --get user.name", "DPA"}, {"git config user.name", ""}, {"git config user.name x", ""},
	{"git config --list", ""}, {"git config --get-all user.name", ""},
	{"git add a.txt", ""}, {"git commit -m x", ""}, {"git checkout -- a.txt", ""}, {"git fetch", ""},
	{"git -C src status", ""}, {"git -C .. status", ""}, {"git --no-pager log", ""}, {"git -c core.pager=cat log", ""},
	{"git --version", ""}, {"git help status", ""}, {"git", ""},
	{"cd src && git status", ""}, {"git status && git diff", "DPA"}, {"git log | head", "DPA"},
	{"touch HEAD && git status", ""}, {"git diff > out.txt", ""}, // a write and git in one line (the host runs the second)
	// Line shapes.
	{"cat a.txt | grep alpha", "DPA"}, {"cat a.txt | grep alpha | wc -l", "DPA"}, {"echo hi | cat", "DPA"},
	{"ls | head -5", "DPA"}, {"cat a.txt && ls", "DPA"}, {"cat a.txt; ls", "DPA"}, {"cat a.txt || true", "DPA"},
	{"if true; then ls; fi", "DPA"}, {"! ls", "DPA"}, {"ls # comment", "DPA"}, {"ls -la | grep txt | wc -l", "DPA"},
	{"ls && cat ../secret", ""}, {"(ls)", ""}, {"{ ls; }", ""}, {"ls &", ""}, {"time ls", ""},
	{"for f in *.txt; do cat $f; done", ""}, {"case x in x) ls;; esac", ""}, {"f() { ls; }", ""},
	{"while false; do ls; done", ""}, // host runs
	{"X=1 ls", ""}, {"FOO=bar cat a.txt", ""}, {"X=a.txt; cat $X", ""}, {"X=1", ""}, {"export X=1", ""},
	{"ls <(echo)", ""}, {"ls |& cat", ""}, {"cat a.txt | tee out.txt", ""}, {"echo x | tee out.txt", ""},
	{"cat <<EOF\nhi\nEOF", ""}, {"cat <<'EOF'\nhi\nEOF", ""}, {"ls 'unterminated", ""},
	{"command ls", "DPA"}, {"timeout 5 ls", "DPA"}, {"command cat ../secret", ""}, {"timeout 5 cat ../secret", ""},
	{"nice ls", ""}, {"env ls", ""}, {"nohup ls", ""}, {"sudo ls", ""}, {"bash -c ls", ""}, {"sh -c 'cat a.txt'", ""},
	{"command -p ls", ""}, {"builtin cd src", ""}, {"pushd src", ""},
	// Redirections.
	{"ls 2>&1", "DPA"}, {"ls 2>/dev/null", "DPA"}, {"ls >/dev/null 2>&1", "DPA"}, {"cat a.txt > /dev/null", "DPA"},
	{"echo x >&2", "DPA"}, {"cat < a.txt", "DPA"}, {"cat 0< a.txt", "DPA"}, {"cat a.txt 2>&1 | head", "DPA"},
	{"cat < ../secret", ""}, {"cat < /etc/hostname", ""}, {"cat a.txt <> b.txt", ""}, {"echo x > /dev/stderr", ""},
	{"echo x > /dev/tty", ""}, {"ls 3>&1", ""},
	{"ls > out.txt", "A"}, {"echo x > out.txt", "A"}, {"echo x > a.txt", "A"}, {"echo x >> a.txt", "A"},
	{"echo x > src/new.txt", "A"}, {"echo x > newdir/new.txt", "A"}, {"cat a.txt > b.txt", "A"},
	{"ls 2> err.txt", "A"}, {"echo x &> out.txt", "A"}, {"echo x >| out.txt", "A"}, {"echo x 1> out.txt", "A"},
	{"echo x 2>> err.txt", "A"}, {"echo x > out.txt 2>&1", "A"}, {`echo x > "out file.txt"`, "A"},
	{"echo x > ./out.txt", "A"}, {"echo x > /p/out.txt", "A"}, {"ls | cat > out.txt", "A"},
	{"ls > out.txt && cat out.txt", "A"}, {"sed 's/a/b/' a.txt > c.txt", "A"},
	{"echo x > ../out.txt", ""}, {"echo x > ~/out.txt", ""}, {"echo x > /tmp/hostlist-out.txt", ""},
	{"echo x > src/../out.txt", ""}, {"echo x > $PWD/out.txt", ""}, {"echo x > /p/../out.txt", ""},
	{"echo x > link/o.txt", ""}, {"echo x > *.txt", ""}, {"echo x > .git/x", ""}, {"echo x > .git/config", ""}, {"echo x >& out.txt", "A"},
	{"echo x >& ../out.txt", ""}, {"timeout 5 touch n.txt", ""}, {"timeout 5 ls > out.txt", ""},
	{"echo x > .claude/settings.json", ""}, {"echo x > .npmrc", ""}, {"echo x > src/.envrc", ""},
	{"cd src && echo x > n.txt", ""}, {"echo x > out.txt ../secret", ""}, {"echo x > out.txt 2>&1 ../secret", ""},
	{"echo x > out.txt -", ""}, {"cat < a.txt b.txt", ""}, // a word after a redirection
	{"cat > out.txt <<EOF\nhi\nEOF", ""},
	{"echo x > .env", ""}, {"echo x > .github/ci.yml", ""}, // host runs in acceptEdits
	// acceptEdits writers.
	{"touch new.txt", "A"}, {"touch a.txt", "A"}, {"touch new1.txt new2.txt", "A"}, {"touch src/new.txt", "A"},
	{`touch "new file.txt"`, "A"}, {"touch newdir/x", "A"}, {"touch ./q.txt", "A"}, {"touch /p/new.txt", "A"},
	{"touch package.json", "A"}, {"touch Makefile", "A"}, {"touch node_modules/x", "A"},
	{"touch ../x", ""}, {"touch ~/x", ""}, {"touch /tmp/hostlist-x", ""}, {"touch $HOME/x", ""},
	{"touch -d yesterday a.txt", ""}, {"touch -r ../secret a.txt", ""}, {"touch -c a.txt", ""}, {"touch -- a.txt", ""},
	{"touch *.txt", ""}, {"touch q{1,2}.txt", ""}, {"touch .git/x", ""}, {"touch .claude/x", ""}, {"touch .vscode/x", ""},
	{"touch .bashrc", ""}, {"touch lefthook.yml", ""}, {"touch bunfig.toml", ""}, {"touch pyrightconfig.json", ""},
	{"touch Lefthook.YML", ""}, {"touch link/x", ""}, {"touch", ""},
	{"touch .env", ""}, {"touch .gitignore", ""}, {"touch src/.hidden", ""}, // host runs in acceptEdits
	{"touch gitlink/x", ""}, {"echo x > gitlink/y", ""}, {"rm -rf self", ""}, {"rm -rf self/", ""}, // links inside (the host runs the rm forms)
	{"mkdir newd", "A"}, {"mkdir -p a/b/c", "A"}, {"mkdir -v nd", "A"}, {"mkdir --parents a/b", "A"}, {"mkdir -pv a/b", "A"},
	{"mkdir nd1 nd2", "A"}, {"mkdir ./nd", "A"},
	{"mkdir ../outd", ""}, {"mkdir ~/d", ""}, {"mkdir /tmp/hostlist-d", ""}, {"mkdir .idea", ""},
	{"mkdir -m 700 newd", ""}, {"mkdir .github", ""}, // host runs in acceptEdits
	{"rm a.txt", "A"}, {"rm -f a.txt", "A"}, {"rm -r dir", "A"}, {"rm -rf dir", "A"}, {"rm -R dir", "A"},
	{"rm --recursive dir", "A"}, {"rm -fr dir", "A"}, {"rm --force a.txt", "A"}, {"rm -rfv dir", "A"}, {"rm -d empty", "A"},
	{"rm -i a.txt", "A"}, {"rm -- a.txt", "A"}, {"rm a.txt b.txt", "A"}, {"rm ./dir", "A"}, {"rm -rf dir/", "A"},
	{"rm /p/a.txt", "A"}, {"rm a.txt && ls", "A"},
	{"rm -rf .", ""}, {"rm -rf ..", ""}, {"rm -rf ~", ""}, {"rm -rf /", ""}, {"rm -rf /p", ""}, {"rm -rf src/..", ""},
	{"rm -rf /tmp/hostlist-nothing", ""}, {"rm ../secret", ""}, {"rm *.txt", ""}, {"rm -rf src/*", ""},
	{"rm .git/config", ""}, {"rm -rf .git", ""}, {"rm -r .claude", ""}, {"rm -r src/../dir", ""}, {"rm", ""},
	{"rm --no-preserve-root -rf dir", ""}, {"rm -rf dir/.", ""}, // host runs rm -rf dir/. in acceptEdits
	{"rmdir empty", "A"}, {"rmdir dir", "A"}, {"rmdir empty dir", "A"},
	{"rmdir ../other", ""}, {"rmdir .git/refs/heads", ""},
	{"rmdir -p empty", "A"}, {"rmdir --ignore-fail-on-non-empty empty", "A"},
	{"cp a.txt c.txt", "A"}, {"cp a.txt src/", "A"}, {"cp a.txt b.txt src", "A"}, {"cp a.txt /p/c.txt", "A"},
	{"cp a.txt c.txt && cat c.txt", "A"},
	{"cp -r dir dir2", ""}, {"cp -f a.txt c.txt", ""}, {"cp -p a.txt c.txt", ""}, {"cp -- a.txt c.txt", ""},
	{"cp -t src a.txt", ""}, {"cp a.txt ../c.txt", ""}, {"cp ../secret s.txt", ""}, {"cp a.txt ~/c.txt", ""},
	{"cp a.txt .git/x", ""}, {"cp .git/config x", ""}, {"cp a.txt .bashrc", ""}, {"cp a.txt", ""},
	{"mv a.txt c.txt", "A"}, {"mv a.txt src/", "A"}, {"mv dir dir2", "A"}, {"mv a.txt b.txt src", "A"},
	{"mv -f a.txt c.txt", ""}, {"mv -t src a.txt", ""}, {"mv -- a.txt c.txt", ""}, {"mv a.txt ../c.txt", ""},
	{"mv ../secret s.txt", ""}, {"mv a.txt ~/", ""}, {"mv .git/config x", ""},
	{"mv a.txt .env", ""}, // host runs in acceptEdits
	{"ln -s a.txt l", ""}, {"chmod +x a.txt", ""}, {"chown root a.txt", ""}, {"truncate -s 0 a.txt", ""},
	{"install a.txt c.txt", ""}, {"dd if=a.txt of=c.txt", ""},
	// Compound lines that write.
	{"touch n.txt && ls", "A"}, {"ls && touch n.txt", "A"}, {"ls || touch n.txt", "A"}, {"ls | touch n.txt", "A"},
	{"touch n.txt; rm n.txt", "A"}, {"mkdir -p d && touch d/f", "A"}, {"mkdir nd && touch nd/f", "A"},
	{"touch n.txt | cat", "A"}, {"if true; then touch n.txt; fi", "A"},
	{"mkdir x && cd x", ""}, {"cd src && touch n.txt", ""}, {"cd src && rm a.txt", ""},
}

func modeLetter(m PermissionMode) string {
	switch m {
	case PermDefault:
		return "D"
	case PermPlan:
		return "P"
	case PermAcceptEdits:
		return "A"
	}
	return "-"
}

func TestClaudeRunsUnasked(t *testing.T) {
	all := []PermissionMode{PermDefault, PermPlan, PermAcceptEdits, PermAuto, PermDontAsk, PermBypass}
	env := testWorld.env("/p")
	seen := map[string]bool{}
	for _, c := range unaskedCases {
		if seen[c.cmd] {
			t.Errorf("%q: listed twice", c.cmd)
		}
		seen[c.cmd] = true
		for _, m := range all {
			want := strings.Contains(c.runs, modeLetter(m))
			if got := (Claude{}).RunsUnasked(m, c.cmd, env); got != want {
				t.Errorf("RunsUnasked(%s, %q) = %v, want %v", m, c.cmd, got, want)
			}
		}
	}
}

// TestClaudeRunsUnaskedRulesCovered checks that every rule has its
// evidence and cases that run and are asked: a rule without an asked
// neighbour here would not show what it keeps out.
func TestClaudeRunsUnaskedRulesCovered(t *testing.T) {
	type count struct{ runs, asked int }
	counts := map[string]*count{}
	for name := range unaskedRules() {
		counts[name] = &count{}
	}
	for name := range gitRules() {
		counts["git "+name] = &count{}
	}
	for _, c := range unaskedCases {
		// The first word of each part of the line.
		for _, part := range strings.FieldsFunc(c.cmd, func(r rune) bool { return r == '|' || r == ';' || r == '&' }) {
			f := strings.Fields(part)
			if len(f) == 0 {
				continue
			}
			name := f[0]
			if name == "git" && len(f) > 1 {
				name += " " + f[1]
			}
			if n, ok := counts[name]; ok {
				if c.runs != "" {
					n.runs++
				} else {
					n.asked++
				}
			}
		}
	}
	for name, n := range counts {
		if n.runs == 0 || n.asked == 0 {
			t.Errorf("rule %q: %d cases that run, %d asked; want both", name, n.runs, n.asked)
		}
	}
	for name, r := range unaskedRules() {
		if r.evidence == "" || r.modes == 0 {
			t.Errorf("rule %q has no evidence or no mode", name)
		}
	}
	for name, r := range gitRules() {
		if r.evidence == "" {
			t.Errorf("git rule %q has no evidence", name)
		}
	}
}

// TestClaudeRunsUnaskedEnv: what RunsUnasked needs from its caller; when
// a piece is missing the answer is false.
func TestClaudeRunsUnaskedEnv(t *testing.T) {
	c := Claude{}
	full := testWorld.env("/p")
	tests := []struct {
		name string
		env  UnaskedEnv
		cmd  string
		want bool
	}{
		{"full env", full, "cat a.txt", true},
		{"no Resolve", UnaskedEnv{Cwd: "/p", Roots: full.Roots, Lstat: full.Lstat}, "cat a.txt", false},
		{"no Roots", UnaskedEnv{Cwd: "/p", Resolve: full.Resolve, Lstat: full.Lstat}, "cat a.txt", false},
		{"relative cwd", UnaskedEnv{Cwd: "p", Roots: full.Roots, Resolve: full.Resolve, Lstat: full.Lstat}, "ls", false},
		{"no Lstat: git is asked", UnaskedEnv{Cwd: "/p", Roots: full.Roots, Resolve: full.Resolve}, "git status", false},
		{"no Lstat: the rest is not", UnaskedEnv{Cwd: "/p", Roots: full.Roots, Resolve: full.Resolve}, "ls", true},
		{"cwd outside the roots", testWorld.env("/o"), "ls", false},
		{"cwd in a subdirectory", testWorld.env("/p/src"), "cat ../a.txt", true},
		{"cwd in a subdirectory, outside", testWorld.env("/p/src"), "cat ../../secret", false},
		{"bare repository indicators", testWorld.env("/bare"), "git status", false},
		{"bare repository indicators, not git", testWorld.env("/bare"), "ls", true},
		{".git is a file", testWorld.env("/wt"), "git log", false},
		{".git is a link", testWorld.env("/lnk"), "git diff", false},
		{"NUL byte", full, "cat a.txt\x00", false},
		{"too long", full, "cat " + strings.Repeat("a", maxUnaskedCommand), false},
		{"empty", full, "", false},
		{"comment only", full, "# ls", false},
	}
	for _, tt := range tests {
		if got := c.RunsUnasked(PermDefault, tt.cmd, tt.env); got != tt.want {
			t.Errorf("%s: RunsUnasked(%q) = %v, want %v", tt.name, tt.cmd, got, tt.want)
		}
	}
}

// Claude is the only host that reports what it runs unasked.
var _ UnaskedRunner = Claude{}

// TestClaudeRunsUnaskedMeasured replays every form of the measurement
// (testdata/hosts/claude/unasked.md) in the measured project: RunsUnasked
// must never say a form runs unasked where Claude Code asked about it.
// Where the host ran a form the table may still say no (it errs towards
// asking); those are logged.
func TestClaudeRunsUnaskedMeasured(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "hosts", "claude", "unasked.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The fixture: ROOT=/r, the project /r/proj, proj/link -> ../other,
	// proj/gitlink -> .git and proj/self -> . (the last two in the later
	// batches only; no form of the earlier ones names them).
	world := unaskedWorld{
		links: map[string]string{"/r/proj/link": "/r/other", "/r/proj/gitlink": "/r/proj/.git", "/r/proj/self": "/r/proj"},
		files: map[string]fs.FileMode{"/r/proj/.git": fs.ModeDir},
	}
	env := UnaskedEnv{Cwd: "/r/proj", Roots: []string{"/r/proj"}, Resolve: world.resolve, Lstat: world.env("/r/proj").Lstat}
	modes := []PermissionMode{PermDefault, PermPlan, PermAcceptEdits}
	rows, pairs, stricter := 0, 0, 0
	table, _, _ := strings.Cut(string(data), earlierMeasurement)
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := splitRow(line)
		if len(cells) != 5 || !strings.HasPrefix(cells[0], "`") || !strings.HasSuffix(cells[0], "`") {
			t.Fatalf("bad row %q", line)
		}
		rows++
		form := strings.Trim(cells[0], "`")
		form = strings.ReplaceAll(form, "\u23ce", "\n")
		form = strings.ReplaceAll(form, "{{PROJ}}", "/r/proj")
		for i, m := range modes {
			host := strings.TrimSuffix(cells[1+i], "*")
			if host == "" {
				continue
			}
			pairs++
			got := Claude{}.RunsUnasked(m, form, env)
			switch {
			case host != "run" && host != "ask":
				t.Errorf("row %q: %s: %q is neither run nor ask", form, m, cells[1+i])
			case got && host == "ask":
				t.Errorf("RunsUnasked(%s, %q) = true, but Claude Code %s asked", m, form, UnaskedVersion)
			case !got && host == "run":
				stricter++
				t.Logf("stricter than the host: %s %q", m, form)
			}
		}
	}
	if rows < 900 || pairs < 2000 {
		t.Fatalf("read %d rows, %d (form, mode) pairs from unasked.md; want the whole table", rows, pairs)
	}
	t.Logf("%d forms, %d (form, mode) pairs, %d where the table asks and the host ran", rows, pairs, stricter)
}

// earlierMeasurement heads the section of unasked.md with the first
// measurement, in another fixture.
const earlierMeasurement = "\n## An earlier measurement\n"

// TestClaudeRunsUnaskedMeasuredEarlier replays the first measurement
// (unasked.md, "An earlier measurement") in its own project: RunsUnasked
// must never say a form runs unasked where Claude Code asked about it.
func TestClaudeRunsUnaskedMeasuredEarlier(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "hosts", "claude", "unasked.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, earlier, ok := strings.Cut(string(data), earlierMeasurement)
	if !ok {
		t.Fatalf("unasked.md has no section %q", strings.TrimSpace(earlierMeasurement))
	}
	// The fixture: the project /r/proj, no links, no repository.
	world := unaskedWorld{}
	env := UnaskedEnv{Cwd: "/r/proj", Roots: []string{"/r/proj"}, Resolve: world.resolve, Lstat: world.env("/r/proj").Lstat}
	rows, stricter := 0, 0
	for _, line := range strings.Split(earlier, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := splitRow(line)
		if len(cells) != 3 {
			t.Fatalf("bad row %q", line)
		}
		rows++
		form := strings.Trim(cells[0], "`")
		for i, m := range []PermissionMode{PermDefault, PermAcceptEdits} {
			got := Claude{}.RunsUnasked(m, form, env)
			switch host := cells[1+i]; {
			case host != "ran" && host != "asked":
				t.Errorf("row %q: %s: %q is neither ran nor asked", form, m, host)
			case got && host == "asked":
				t.Errorf("RunsUnasked(%s, %q) = true, but Claude Code %s asked", m, form, UnaskedVersion)
			case !got && host == "ran":
				stricter++
				t.Logf("stricter than the host: %s %q", m, form)
			}
		}
	}
	if rows < 130 {
		t.Fatalf("read %d rows of the earlier measurement; want the whole table", rows)
	}
	t.Logf("%d forms, %d where the table asks and the host ran", rows, stricter)
}

// splitRow splits a Markdown table row at the "|" not written "\|".
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}
