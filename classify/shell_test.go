package classify

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

var shellEnv = ShellEnv{Cwd: "/p", Home: "/h", ProjectDir: "/p"}

// shellTargetsOf returns "r /path" and "w /path" for every target (paths
// cleaned; "p" marks a pattern target, "g" a glob), sorted and deduplicated.
func shellTargetsOf(a ShellAnalysis) []string {
	var out []string
	for _, c := range a.Commands {
		for _, t := range c.Targets {
			kind := "r"
			if t.Access == policy.Write {
				kind = "w"
			}
			p := t.Path
			if !t.Glob && !t.Pattern {
				p = path.Clean(p)
			}
			switch {
			case t.Pattern:
				kind += "p"
			case t.Glob:
				kind += "g"
			}
			if t.Recursive {
				kind += "R"
			}
			out = append(out, kind+" "+p)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

type shellCase struct {
	name    string
	in      []string // spellings with the same expectation
	want    []string // targets, see shellTargetsOf
	unknown bool
}

var shellCases = []shellCase{
	// Redirections.
	{name: "output redirections write", in: []string{"echo x > f", "echo x >f", ">f echo x", "echo x 1>f", "echo x &>f", "echo x >|f", "echo x >> f", "echo x &>> f", "echo x 2> f", "cat <> f"}, want: []string{"w /p/f"}},
	{name: "input redirection reads", in: []string{"cat < f", "cat <f", "wc -l < f"}, want: []string{"r /p/f"}},
	{name: "here-documents are no files", in: []string{"cat <<EOF > .env\nk=v\nEOF", "cat > .env <<'EOF'\nk=v\nEOF", "cat <<< hi > .env"}, want: []string{"w /p/.env"}},
	{name: "descriptors and devices are no targets", in: []string{"echo x 2>&1", "echo x >&2", "cat <&3", "echo x > /dev/null 2>&1", "echo x > /dev/stderr", "echo >&-", "head -c 8 /dev/urandom"}},
	{name: "a redirection of a group", in: []string{"{ echo a; echo b; } > out", "(echo a) > out"}, want: []string{"w /p/out"}},
	{name: ">& with a file name writes it", in: []string{"echo x >& log"}, want: []string{"w /p/log"}},
	{name: "exec with only a redirection", in: []string{"exec 3> /tmp/x"}, want: []string{"w /tmp/x"}},
	{name: "redirection to a variable is unknown", in: []string{"echo x > $OUT", "echo x > $(mktemp)"}, unknown: true},

	// Reads.
	{name: "cat family reads its operands", in: []string{"cat a b", "cat -n a b", "tac a b", "nl a b", "head -n 5 a b", "head -5 a b", "tail -f a b", "tail -n +2 a b", "wc -l a b", "sort -u a b", "base64 a b", "base32 a b", "od -c a b", "strings a b", "md5sum a b", "sha1sum a b", "sha256sum a b", "sha512sum a b", "b2sum a b", "cksum a b", "less a b", "more a b", "cut -d, -f1 a b", "paste a b", "comm a b", "join a b", "fold a b", "fmt a b", "rev a b", "column a b", "hexdump -C a b", "file a b", "stat a b", "readlink -f a b", "realpath a b", "diff -u a b", "cmp a b", "zcat a b", "jq . a b", "yq '.x' a b", "shuf a b", "iconv -f utf8 -t ascii a b"}, want: []string{"r /p/a", "r /p/b"}},
	{name: "listing reads the directory", in: []string{"ls", "ls -la", "du -sh", "tree", "tree -L 2", "find", "find . -name x", "rg foo", "grep -r foo"}, want: []string{"r /p"}},
	{name: "listing a named directory", in: []string{"ls ../o", "ls -la ../o", "du -sh ../o", "tree ../o", "find ../o -type f", "stat ../o", "file ../o"}, want: []string{"r /o"}},
	{name: "grep reads files after the pattern", in: []string{"grep KEY .env", "grep -n KEY .env", "grep -e KEY .env", "grep -rn KEY .env", "egrep 'a|b' .env", "fgrep -i k .env", "rg KEY .env", "rg -e KEY .env", "awk '{print}' .env", "awk -F: '{print $1}' .env", "sed -n 1p .env", "sed 's/a/b/' .env", "sed -e 's/a/b/' .env", "jq -r .a .env"}, want: []string{"r /p/.env"}},
	{name: "source reads a file and runs its commands", in: []string{"source .env", ". .env"}, unknown: true},
	{name: "grep with a pattern file", in: []string{"grep -f pats .env", "grep --file=pats .env"}, want: []string{"r /p/.env", "r /p/pats"}},
	{name: "grep --include names files below", in: []string{"grep -r --include='.env*' KEY ."}, want: []string{"r /p", "rp /p/**/.env*"}},
	{name: "rg -g names files below", in: []string{"rg -g '*.pem' KEY", "rg --glob='*.pem' KEY"}, want: []string{"r /p", "rp /p/**/*.pem"}},
	{name: "no file operands", in: []string{"echo hi", "printf '%s' x", "pwd", "true", "false", "date", "env", "whoami", "id", "uname -a", "hostname", "which go", "type ls", "sleep 1", "seq 3", "yes | head -1", "expr 1 + 2", "basename a/b", "dirname a/b", "test -f x", "[ -f x ]", "tr a b", "nproc", "ps aux", "df -h", "free -m", "uptime", "clear", "history", "jobs", "kill 1", "alias", "alias ll", "hash", "hash -r", "umask 022", "printenv HOME", "exit 0", "shift", "set -e", "declare x=1", "local x=1", "export A=1", "command -v ls", "f=x", "time true", "timeout 5 true"}},

	// Writes.
	{name: "write commands write their operands", in: []string{"rm a b", "rm -f a b", "rmdir a b", "touch a b", "mkdir -p a b", "mkdir -m 755 a b", "truncate -s 0 a b", "tee a b", "tee -a a b", "mkfifo a b", "chmod 600 a b", "chmod -x a b", "chmod +x a b", "chmod u+rw a b", "chown root a b", "chgrp staff a b", "sed -i 's/a/b/' a b", "sed -ni 's/a/b/p' a b", "sed --in-place 's/a/b/' a b", "yq -i '.a=1' a b", "gunzip a b"}, want: []string{"w /p/a", "w /p/b"}},
	{name: "yq e: the expression may be a file (kislyuk's yq reads it)", in: []string{"yq e '.x' a b", "yq eval '.x' a b"}, want: []string{"r /p/.x", "r /p/a", "r /p/b"}},
	{name: "perl -i runs its script on the operands", in: []string{"perl -pi x.pl a b", "perl -i -p x.pl a b"}, want: []string{"r /p/x.pl", "w /p/a", "w /p/b"}},
	{name: "sed -iSUFFIX and perl -iSUFFIX write a backup", in: []string{"sed -i.bak -e 's/a/b/' a b", "sed -ni.bak 's/a/b/p' a b", "sed --in-place=.bak 's/a/b/' a b", "sed -i'*.bak' 's/a/b/' a b"}, want: []string{"w /p/a", "w /p/a.bak", "w /p/b", "w /p/b.bak"}},
	{name: "perl -i.bak", in: []string{"perl -i.bak -p x.pl a b", "perl -pi.bak x.pl a b"}, want: []string{"r /p/x.pl", "w /p/a", "w /p/a.bak", "w /p/b", "w /p/b.bak"}},
	{name: "a backup named with *", in: []string{"sed -i'old_*' 's/a/b/' d/a"}, want: []string{"w /p/d/a", "w /p/d/old_a"}},
	{name: "a backup in another directory is unknown", in: []string{"sed -i'bak/*' 's/a/b/' a"}, unknown: true},
	{name: "an i inside -e's script is no -i", in: []string{"sed -es/i/x/ a"}, want: []string{"r /p/a"}},
	{name: "a script file is read", in: []string{"sh s.sh", "bash -e s.sh", "python3 s.sh", "node s.sh", "perl s.sh", "python3 -u s.sh x"}, want: []string{"r /p/s.sh"}},
	{name: "gzip replaces FILE with FILE.gz", in: []string{"gzip a", "gzip -9 a", "gzip -f -- a", "gzip --best a"}, want: []string{"w /p/a", "w /p/a.gz"}},
	{name: "gzip -S names the suffix", in: []string{"gzip -S .z a", "gzip --suffix=.z a"}, want: []string{"w /p/a", "w /p/a.z"}},
	{name: "bzip2, xz and lzma", in: []string{"bzip2 a", "bzip2 -z a"}, want: []string{"w /p/a", "w /p/a.bz2"}},
	{name: "xz", in: []string{"xz a", "xz -T0 a", "xz -T 4 a", "xz -9e a"}, want: []string{"w /p/a", "w /p/a.xz"}},
	{name: "lzma", in: []string{"lzma a"}, want: []string{"w /p/a", "w /p/a.lzma"}},
	{name: "zstd keeps its input", in: []string{"zstd a", "zstd -19 a", "zstd -T0 a"}, want: []string{"r /p/a", "w /p/a.zst"}},
	{name: "zstd --rm", in: []string{"zstd --rm a"}, want: []string{"w /p/a", "w /p/a.zst"}},
	{name: "zstd -o names the output", in: []string{"zstd -o out a", "zstd a -o out"}, want: []string{"r /p/a", "w /p/out"}},
	{name: "decompressing replaces FILE.gz with FILE", in: []string{"gunzip a.gz", "gzip -d a.gz", "gzip --decompress a.gz", "gunzip -f a.gz"}, want: []string{"w /p/a", "w /p/a.gz"}},
	{name: "gunzip .tgz writes .tar", in: []string{"gunzip a.tgz"}, want: []string{"w /p/a.tar", "w /p/a.tgz"}},
	{name: "bunzip2", in: []string{"bunzip2 a.bz2", "bzip2 -d a.bz2"}, want: []string{"w /p/a", "w /p/a.bz2"}},
	{name: "unxz and unlzma", in: []string{"unxz a.xz", "xz -d a.xz"}, want: []string{"w /p/a", "w /p/a.xz"}},
	{name: "unlzma", in: []string{"unlzma a.lzma"}, want: []string{"w /p/a", "w /p/a.lzma"}},
	{name: "unzstd keeps its input", in: []string{"unzstd a.zst", "zstd -d a.zst"}, want: []string{"r /p/a.zst", "w /p/a"}},
	{name: "-k keeps the input", in: []string{"gzip -k a", "gzip --keep a"}, want: []string{"r /p/a", "w /p/a.gz"}},
	{name: "-r replaces every file below", in: []string{"gzip -r d", "gunzip -r d"}, want: []string{"wR /p/d"}},
	{name: "compressors reading file lists or changing formats are unknown", in: []string{"xz --files=list", "zstd --filelist=list", "xz --format=lzma a", "zstd --output-dir-flat=o a", "gzip -S $S a"}, unknown: true},
	{name: "recursive deletes", in: []string{"rm -rf a", "rm -r a", "rm -R -f a", "rm --recursive a"}, want: []string{"wR /p/a"}},
	{name: "touch -r reads its reference", in: []string{"touch -r ref a", "touch --reference=ref a"}, want: []string{"r /p/ref", "w /p/a"}},
	{name: "cp reads sources and writes the destination", in: []string{"cp a b d", "cp -a a b d", "cp -r a b d", "cp -t d a b", "cp --target-directory=d a b", "install -m 644 a b d", "rsync -avz a b d", "scp a b d"}, want: []string{"r /p/a", "r /p/b", "w /p/d"}},
	{name: "mv writes sources and destination", in: []string{"mv a b d", "mv -f a b d", "mv -t d a b"}, want: []string{"w /p/a", "w /p/b", "w /p/d"}},
	{name: "a hard link reads and writes its source", in: []string{"ln a l", "ln -f a l"}, want: []string{"r /p/a", "w /p/a", "w /p/l"}},
	{name: "a symbolic link writes only its name", in: []string{"ln -s a l", "ln -sf a l", "ln -s -T a l"}, want: []string{"w /p/l"}},
	{name: "cp -l is a hard link", in: []string{"cp -l a d"}, want: []string{"w /p/a", "w /p/d"}},
	{name: "remote copy operands are not files", in: []string{"scp host:x d", "rsync -a user@host:/x d", "curl -o d https://example.com/x"}, want: []string{"w /p/d"}},
	{name: "install -d creates directories", in: []string{"install -d a"}, want: []string{"w /p/a"}},
	{name: "dd if and of", in: []string{"dd if=a of=b bs=1", "dd bs=1 of=b if=a count=1"}, want: []string{"r /p/a", "w /p/b"}},
	{name: "dd from a device", in: []string{"dd if=/dev/zero of=/etc/x bs=1"}, want: []string{"w /etc/x"}},
	{name: "uniq and xxd write a second operand", in: []string{"uniq a b", "xxd a b"}, want: []string{"r /p/a", "w /p/b"}},
	{name: "sort -o writes", in: []string{"sort -o b a", "sort --output=b a"}, want: []string{"r /p/a", "w /p/b"}},
	{name: "tar -c writes the archive, reads members", in: []string{"tar czf a.tgz src", "tar -czf a.tgz src", "tar -c -f a.tgz src", "tar --create --file a.tgz src"}, want: []string{"r /p/src", "w /p/a.tgz"}},
	{name: "tar -x writes into -C or the working directory", in: []string{"tar -xzf a.tgz -C out", "tar xf a.tgz -C out", "tar --extract --file=a.tgz --directory=out"}, want: []string{"r /p/a.tgz", "wR /p/out"}},
	{name: "tar -x without -C", in: []string{"tar xf a.tgz"}, want: []string{"r /p/a.tgz", "wR /p"}},
	{name: "tar -t only reads", in: []string{"tar tf a.tgz", "tar -tzvf a.tgz"}, want: []string{"r /p/a.tgz"}},
	{name: "unzip extracts into -d", in: []string{"unzip a.zip -d out", "unzip -o a.zip -d out"}, want: []string{"r /p/a.zip", "wR /p/out"}},
	{name: "unzip -l only reads", in: []string{"unzip -l a.zip"}, want: []string{"r /p/a.zip"}},
	{name: "zip writes the archive, reads inputs", in: []string{"zip a.zip x", "zip -r a.zip x"}, want: []string{"r /p/x", "w /p/a.zip"}},
	{name: "gzip -c and -k", in: []string{"gzip -c a", "gunzip -t a"}, want: []string{"r /p/a"}},
	{name: "curl writes -o and reads uploads", in: []string{"curl --output out https://x -T up", "curl -o out -d @up https://x", "curl -o out --data-binary @up https://x", "curl -o out -F f=@up https://x"}, want: []string{"r /p/up", "w /p/out"}},
	{name: "curl -o out only", in: []string{"curl -o out https://x", "curl -sSo out https://x", "curl -L -o out https://x"}, want: []string{"w /p/out"}},
	{name: "curl -O writes into the working directory", in: []string{"curl -O https://x/f"}, want: []string{"w /p"}},
	{name: "curl to stdout has no target", in: []string{"curl -s https://x", "curl -o - https://x"}},
	{name: "wget -O writes", in: []string{"wget -O out https://x", "wget --output-document=out https://x"}, want: []string{"w /p/out"}},
	{name: "wget writes into the working directory", in: []string{"wget https://x/f", "wget -q https://x"}, want: []string{"wR /p"}},
	{name: "git paths", in: []string{"git checkout -- .env", "git restore .env", "git rm .env", "git rm --cached .env"}, want: []string{"r /p", "w /p/.env"}},
	{name: "git mv", in: []string{"git mv a b"}, want: []string{"r /p", "w /p/a", "w /p/b"}},
	{name: "git rewriting the work tree writes it", in: []string{"git checkout main", "git switch main", "git reset --hard", "git stash", "git pull", "git merge x", "git rebase main"}, want: []string{"r /p", "w /p"}},
	{name: "git clean", in: []string{"git clean -fdx"}, want: []string{"r /p", "wR /p"}},
	{name: "git reads hidden in revisions", in: []string{"git show HEAD:.env", "git cat-file -p HEAD:.env", "git diff -- .env", "git log -p -- .env", "git show HEAD -- .env"}, want: []string{"r /p", "r /p/.env"}},
	{name: "git reads the repository it works on", in: []string{"git status", "git log --oneline", "git diff", "git add -A", "git commit -m x", "git push origin main", "git fetch", "git branch -a", "git -c color.ui=false status", "git -c user.name=x commit -m y"}, want: []string{"r /p"}},
	{name: "git reads a repository outside", in: []string{"git -C ../o log -p", "cd ../o && git status"}, want: []string{"r /o"}},
	{name: "git without a repository", in: []string{"git --version", "git help log", "git version", "git ls-remote https://x/r.git"}},
	{name: "git options and keys that run a command are inline code", in: []string{
		"git -c core.fsmonitor='touch x' status", "git -c core.pager=x log", "git -c alias.st='!rm x' st", "git -c Core.SSHCommand=x fetch",
		"git -c diff.external=x diff", "git -c filter.a.clean=x add .", "git -c credential.helper=x push", "git -c include.path=../x status",
		"git --config-env=core.pager=P log", "git -c $K=v status", "git --exec-path=. status", "git --git-dir=../o/.git status",
		"git config core.fsmonitor 'rm -rf ~'", "git config set core.hooksPath h", "git config --local alias.x '!sh'", "git config --global core.editor vim",
		"git config edit"}, unknown: true},
	{name: "harmless git -c keys", in: []string{"git config user.email", "git config --get core.fsmonitor", "git config -l", "git config user.email a@b"}},
	{name: "git config --global and --file write the file", in: []string{"git config --global user.email a@b", "git config --global --unset user.email"}, want: []string{"w /h/.gitconfig"}},
	{name: "git config --file names the file", in: []string{"git config --file c user.email a@b"}, want: []string{"w /p/c"}},
	{name: "variables naming a program or code make the command unknown", in: []string{
		"GIT_EXTERNAL_DIFF='rm -rf ~' git diff", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x git status",
		"PAGER='rm x' man ls", "LD_PRELOAD=./x.so ls", "env GIT_SSH_COMMAND=x git fetch", "export GIT_PAGER=x; git log",
		"PATH=.:$PATH ls", "PATH=/tmp/x ls", "BASH_ENV=x bash s.sh", "declare -x EDITOR=x", "CDPATH=/ ; cd etc"}, unknown: true},
	{name: "options whose value is a command", in: []string{"rsync -e 'sh -c x' a h:b", "rsync --rsh=x a h:b", "scp -S x a h:b", "scp -o ProxyCommand=x a h:b", "scp -o 'LocalCommand x' a h:b", "sort --compress-program=x f", "zip -TT 'rm x' a.zip f", "zip --unzip-command='rm x' a.zip f"}, unknown: true},
	{name: "scp -o without a command", in: []string{"scp -o StrictHostKeyChecking=no a h:b"}, want: []string{"r /p/a"}},
	{name: "safezone init writes the project's setup", in: []string{"safezone init", "/usr/local/bin/safezone init --host claude"}, want: []string{"w /p/.claude/settings.json", "w /p/.gitignore", "w /p/.safezone.yaml", "w /p/agent_sandbox/.gitignore"}},
	{name: "safezone init --user writes the user's", in: []string{"safezone init --user"}, want: []string{"w /h/.claude/settings.json", "w /h/.config/safezone/policy.yaml"}},
	{name: "other safezone commands only read", in: []string{"safezone init --dry-run", "safezone explain", "safezone validate", "safezone policy"}},
	{name: "aliases and hashed paths change what a name runs", in: []string{"alias cat='rm -rf'", "hash -p ./x cat", "enable -f x.so y", "enable -n cd"}, unknown: true},
	{name: "git -C moves the directory", in: []string{"git -C ../o checkout -- x"}, want: []string{"r /o", "w /o/x"}},
	{name: "git clone writes its destination", in: []string{"git clone https://x/repo.git", "git clone https://x/repo.git repo"}, want: []string{"wR /p/repo"}},
	{name: "find -delete writes the start directory", in: []string{"find ../o -name '*.txt' -delete", "find ../o -delete"}, want: []string{"r /o", "wR /o"}},
	{name: "find -exec applies the command's access to DIR/**/NAME", in: []string{"find . -name '*.pem' -exec rm {} \\;", "find . -name '*.pem' -exec rm -f {} +"}, want: []string{"r /p", "w /p", "wp /p/**/*.pem"}},
	{name: "find -exec reading", in: []string{"find . -name '.env*' -exec cat {} \\;"}, want: []string{"r /p", "rp /p/**/.env*"}},
	{name: "find -exec without -name applies to DIR", in: []string{"find src -type f -exec rm {} \\;"}, want: []string{"r /p/src", "wR /p/src"}},
	{name: "find -fprint writes", in: []string{"find . -fprint out"}, want: []string{"r /p", "w /p/out"}},

	// Wrappers.
	{name: "wrappers are stripped", in: []string{"sudo rm x", "sudo -u root rm x", "sudo -E -n rm x", "env rm x", "env -i rm x", "env -u A rm x", "env A=1 B=2 rm x", "A=1 rm x", "command rm x", "builtin rm x", "exec rm x", "nice rm x", "nice -n 10 rm x", "nohup rm x", "time rm x", "timeout 5 rm x", "timeout -s KILL 5 rm x", "stdbuf -oL rm x", "ionice -c 3 rm x", "doas rm x", "sudo nice -n 5 timeout 3 rm x", "/bin/rm x", "\\rm x", "'rm' x", "\"rm\" x"}, want: []string{"w /p/x"}},
	{name: "scheduling and prefix-named outputs are unknown", in: []string{"batch", "echo rm x | batch", "csplit f 5", "csplit -f part f /x/"}, unknown: true},
	{name: "dirs touches nothing", in: []string{"dirs", "dirs -v"}},
	{name: "read, readarray and unset only set variables", in: []string{"read X", "read -r X < /dev/stdin", "readarray -t L", "unset X", "unset -f f"}},
	{name: "a variable set by read, readarray or unset is not static", in: []string{"read X; rm $X", "readarray L; rm $L", "V=a; unset V; rm $V"}, unknown: true},
	{name: "sudo -i runs a shell", in: []string{"sudo -i", "sudo -s"}, unknown: true},

	// cd tracking.
	{name: "cd && resolves against the new directory", in: []string{"cd .. && rm -rf other", "cd /p/.. && rm -rf other", "pushd .. && rm -rf other"}, want: []string{"wR /other"}},
	{name: "cd ; keeps both directories", in: []string{"cd .. ; touch x", "cd ..\ntouch x"}, want: []string{"w /p/x", "w /x"}},
	{name: "cd in a subshell does not leak", in: []string{"(cd ..); touch x", "(cd .. && true); touch x"}, want: []string{"w /p/x"}},
	{name: "cd without a directory goes home", in: []string{"cd && touch x"}, want: []string{"w /h/x"}},
	{name: "cd to a variable makes relative targets unknown", in: []string{"cd $D && touch x", "cd - && touch x"}, unknown: true},
	{name: "cd then an absolute target", in: []string{"cd $D && touch /tmp/x"}, want: []string{"w /tmp/x"}},
	{name: "popd restores", in: []string{"pushd /tmp && popd && touch x"}, want: []string{"w /p/x"}},

	// Static words.
	{name: "home and variables from the environment", in: []string{"cat ~/x", "cat $HOME/x", "cat ${HOME}/x", "cat \"$HOME\"/x", "cat \"$HOME/x\"", "cat $PWD/../h/x", "cat $CLAUDE_PROJECT_DIR/../h/x"}, want: []string{"r /h/x"}},
	{name: "literal variables assigned earlier", in: []string{"V=.env; cat \"$V\"", "V=.env\ncat $V", "export V=.env; cat $V", "declare V=.env; cat $V"}, want: []string{"r /p/.env"}},
	{name: "ANSI-C quoting is decoded", in: []string{"$'\\x72\\x6d' x", "$'rm' x"}, want: []string{"w /p/x"}},
	{name: "quoted names", in: []string{"cat '.env'", "cat \".env\"", "cat .e'n'v", "cat \\.env"}, want: []string{"r /p/.env"}},
	{name: "brace expansion", in: []string{"rm {a,b}", "rm x{a,b}y"}, want: nil},
	{name: "globs are glob targets", in: []string{"rm ../*.txt"}, want: []string{"wg /p/../*.txt"}},
	{name: "quoted glob characters are literal", in: []string{"cat '*.txt'", "cat \\*.txt"}, want: []string{"r /p/*.txt"}},

	// Unknown-makers.
	{name: "dynamic words in target positions", in: []string{"rm $X", "rm \"$X\"", "rm ${X:-y}", "rm $(ls)", "rm `ls`", "rm $((1+1))", "cat <(ls)", "rm ~root/x", "rm $X/y", "V=$(pwd); rm $V"}, unknown: true},
	{name: "a variable assigned in a branch is unknown", in: []string{"if true; then V=a; fi; rm $V", "true && V=a; rm $V", "for V in a b; do rm $V; done"}, unknown: true},
	{name: "inline code", in: []string{"eval \"$CMD\"", "eval 'rm x'", "python3 -c 'print(1)'", "python -c x", "node -e x", "node --eval x", "perl -e 'print 1'", "ruby -e x", "php -r x", "deno eval x", "bash -s", "sh", "bash <<EOF\nrm x\nEOF", "python3 <<EOF\nprint(1)\nEOF", "python3 -", "osascript -e x"}, unknown: true},
	{name: "xargs feeding a reader or writer", in: []string{"ls | xargs rm", "find . | xargs -0 cat", "xargs -I{} cp {} /tmp"}, unknown: true},
	{name: "find -exec with an unknown program", in: []string{"find . -exec python3 x.py {} \\;"}, unknown: true},
	{name: "programs that run other commands", in: []string{"watch ls", "tmux send-keys 'rm x' Enter", "screen -X stuff x", "crontab x", "at now", "patch -p1 < x.diff", "split x part", "rg --pre cat foo"}, unknown: true},
	{name: "options not in the table", in: []string{"rm --frobnicate x", "cat -Z x", "cp --frob a b"}, unknown: true},
	{name: "sed and awk that touch other files", in: []string{"sed 'w out' in", "sed -n '1w out' in", "sed 's/a/b/w out' in", "sed 'e ls' in", "awk '{print > \"out\"}' in", "awk '{system(\"rm x\")}' in", "awk '{print | \"sh\"}' in", "sed -f script in"}, unknown: true},
	{name: "parse errors and limits", in: []string{"echo \"unterminated", "if then fi", "echo (", strings.Repeat("x", MaxShellCommand+1)}, unknown: true},
	{name: "a dynamic program name", in: []string{"$CMD x", "\"$(which rm)\" x"}, unknown: true},

	// Recursion and composition.
	{name: "bash -c is parsed", in: []string{"bash -c 'rm x'", "sh -c 'rm x'", "zsh -c \"rm x\"", "bash -lc 'rm x'", "sudo bash -c 'rm x'", "bash -c 'bash -c \"rm x\"'"}, want: []string{"w /p/x"}},
	{name: "every part of a list and pipeline", in: []string{"ls; rm x", "ls && rm x", "ls || rm x", "ls | tee x", "ls & rm x", "if ls; then rm x; fi", "until ls; do rm x; done"}, want: []string{"r /p", "w /p/x"}},
	{name: "every compound command", in: []string{"while false; do rm x; done", "case a in a) rm x;; esac", "f() { rm x; }", "{ rm x; }", "(rm x)", "! rm x", "time rm x", "for i in 1 2; do rm x; done", "if false; then :; else rm x; fi", "[[ -f y ]] && rm x"}, want: []string{"w /p/x"}},
	{name: "substitutions are commands", in: []string{"echo \"$(cat .env)\"", "echo `cat .env`", "X=$(cat .env)", "echo $(cat .env) > /dev/null"}, want: []string{"r /p/.env"}},
	{name: "a process substitution as an operand is unknown", in: []string{"diff <(cat .env) -"}, unknown: true},
	{name: "a trap's command", in: []string{"trap 'rm -f x' EXIT"}, want: []string{"w /p/x"}},
	{name: "proc files are reads", in: []string{"cat /proc/self/environ"}, want: []string{"r /proc/self/environ"}},
}

func TestShellTargets(t *testing.T) {
	for _, tt := range shellCases {
		for _, in := range tt.in {
			a := AnalyzeShell(in, shellEnv)
			got := shellTargetsOf(a)
			if tt.unknown {
				if a.Known() {
					t.Errorf("%s: %q: known, want unknown; targets %q", tt.name, in, got)
				}
				continue
			}
			if !a.Known() {
				t.Errorf("%s: %q: unknown (%s), want %q", tt.name, in, a.Why(), tt.want)
				continue
			}
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if tt.name == "brace expansion" {
				want = []string{"w /p/a", "w /p/b"}
				if strings.Contains(in, "x{") {
					want = []string{"w /p/xay", "w /p/xby"}
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %q:\n got %q\nwant %q", tt.name, in, got, want)
			}
		}
	}
}

// TestShellTableCoverage: every command in the table has a test case.
func TestShellTableCoverage(t *testing.T) {
	tested := map[string]bool{}
	for _, tt := range shellCases {
		for _, in := range tt.in {
			for _, c := range AnalyzeShell(in, shellEnv).Commands {
				if len(c.Argv) > 0 {
					tested[c.Argv[0]] = true
				}
			}
			for _, w := range strings.Fields(in) {
				tested[strings.Trim(w, "'\"\\$")] = true
			}
		}
	}
	for i := range specs {
		if !tested[specs[i].name] {
			t.Errorf("table entry %q has no test case", specs[i].name)
		}
	}
	if !sort.SliceIsSorted(specs, func(i, j int) bool { return specs[i].name < specs[j].name }) {
		t.Error("specs must be sorted by name (spec uses a binary search)")
	}
}

// TestShellRules checks Bash(...) matching with options as sets.
func TestShellRules(t *testing.T) {
	rule := func(s string) policy.Rule {
		r, err, _ := policy.CompileRule(s, policy.Pos{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		rule  string
		allow bool
		yes   []string
		no    []string
	}{
		{rule: "Bash(rm -rf *)",
			yes: []string{"rm -rf x", "rm -fr x", "rm -r -f x", "rm --recursive --force x", "sudo rm -rf x", "/bin/rm -rf x", "command rm -rf x", "x; rm -rf y", "bash -c 'rm -rf y'", "rm  -rf  x", "rm -rfv x", "rm -R -f x", "rm -rf", "FOO=1 rm -rf x", "timeout 5 rm -rf x", "nice -n 10 rm -rf x", "rm x -rf", "\\rm -rf x"},
			no:  []string{"rm -r x", "rm -f x", "rm x", "rmdir -rf x", "echo rm -rf x", "git rm -rf x"}},
		{rule: "Bash(go test:*)", yes: []string{"go test", "go test ./...", "go test -v ./..."}, no: []string{"go build", "go vet ./..."}},
		{rule: "Bash(git push:*)", yes: []string{"git push origin main", "git push --force"}, no: []string{"git pull"}},
		{rule: "Bash(npm test)", allow: true, yes: []string{"npm test"}, no: []string{"npm test --config=evil", "npm test x", "npm run build", "npm test; rm x"}},
		{rule: "Bash(cat *)", allow: true, yes: []string{"cat README.md", "cat a b"}, no: []string{"cat -n a", "cat a; rm b"}},
		{rule: "Bash(git push --force *)", yes: []string{"git push --force origin main", "git push origin main --force", "git push -f origin"}, no: []string{"git push origin main"}},
	}
	for _, tt := range tests {
		r := rule(tt.rule)
		check := func(cmd string, want bool) {
			d := &decider{call: nil}
			sa := AnalyzeShell(cmd, shellEnv)
			d.shell = &sa
			d.call = shellCall(cmd)
			if got := d.shellRuleMatches(&r, tt.allow); got != want {
				t.Errorf("%s (allow %v) vs %q = %v, want %v", tt.rule, tt.allow, cmd, got, want)
			}
		}
		for _, c := range tt.yes {
			check(c, true)
		}
		for _, c := range tt.no {
			check(c, false)
		}
	}
}

func shellCall(cmd string) *hookio.Call {
	return &hookio.Call{Tool: "Bash", Kind: hookio.KindShell, Command: cmd, Cwd: "/p", Writes: true}
}

// TestShellRuns: a command that runs a program or script outside the
// tables says so (ShellCommand.Runs); one in the tables does not.
func TestShellRuns(t *testing.T) {
	for in, want := range map[string]string{
		"make":               "make",
		"npm test":           "npm",
		"./build.sh --fast":  "build.sh",
		"go test ./...":      "go",
		"sudo -u x make all": "make",
		"sh s.sh":            "sh s.sh",
		"python3 x.py":       "python3 x.py",
		"python3 -m pytest":  "python3 -m pytest",
		"perl -pi x.pl a":    "perl x.pl",
		"cat a":              "",
		"rm -rf x":           "",
		"bash -c 'rm x'":     "",
		"git status":         "",
		"echo hi":            "",
	} {
		a := AnalyzeShell(in, shellEnv)
		var got []string
		for _, c := range a.Commands {
			if c.Runs != "" {
				got = append(got, c.Runs)
			}
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%q: runs %q, want %q", in, got, want)
		}
	}
}

// TestShellGlobBudget: the globs of one command read at most maxGlobDirs
// directories; past that the command is unknown (asked), with a reason
// that says so, instead of walking the disk until the hook's deadline.
func TestShellGlobBudget(t *testing.T) {
	var files []string
	for i := range maxGlobDirs + 100 {
		files = append(files, fmt.Sprintf("proj/d%04d/f.txt", i))
	}
	for _, tt := range []struct {
		cmd  string
		want policy.Decision
		has  string
	}{
		{"cat */x*", policy.Ask, "read more than 1000 directories"},
		{"cat d0001/*.txt d0002/*.txt", policy.Allow, ""},
	} {
		r := runDecide(t, decideCase{name: tt.cmd, fs: files, tool: "Bash", input: map[string]any{"command": tt.cmd}, flags: yesFlag})
		if r.Decision != tt.want || !strings.Contains(r.Reason, tt.has) {
			t.Errorf("%q: %v %q, want %v with %q", tt.cmd, r.Decision, r.Reason, tt.want, tt.has)
		}
	}
}
