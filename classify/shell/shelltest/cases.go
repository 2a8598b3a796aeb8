// Package shelltest holds the table of shell command lines and what
// [shell.Analyze] must find in each: the expectations of the analysis's
// table tests, the seeds of the fuzz tests, and the commands the kernel
// differential test runs for real. It is test data, kept in a package so
// that the tests of shell and of classify share it.
package shelltest

import "strings"

// Env is the environment every case is analysed in: cwd and project /p,
// home /h.
const (
	Cwd  = "/p"
	Home = "/h"
)

// Case is one expectation: every spelling in In has the targets Want, or,
// with Unknown, some target the analysis cannot know.
//
// A target is written "KIND PATH": KIND "r" (read) or "w" (write), then "p"
// for a pattern target, "g" for a glob, "R" for a recursive write; PATH
// cleaned unless it is a pattern or glob.
type Case struct {
	Name    string
	In      []string
	Want    []string
	Unknown bool
}

// Cases are the table, in plain English names as os.Root's tests name
// theirs. Every command of the analysis's table appears in some case.
var Cases = []Case{
	// Redirections.
	{Name: "output redirections write", In: []string{"echo x > f", "echo x >f", ">f echo x", "echo x 1>f", "echo x &>f", "echo x >|f", "echo x >> f", "echo x &>> f", "echo x 2> f", "cat <> f"}, Want: []string{"w /p/f"}},
	{Name: "input redirection reads", In: []string{"cat < f", "cat <f", "wc -l < f"}, Want: []string{"r /p/f"}},
	{Name: "here-documents are no files", In: []string{"cat <<EOF > .env\nk=v\nEOF", "cat > .env <<'EOF'\nk=v\nEOF", "cat <<< hi > .env"}, Want: []string{"w /p/.env"}},
	{Name: "descriptors and devices are no targets", In: []string{"echo x 2>&1", "echo x >&2", "cat <&3", "echo x > /dev/null 2>&1", "echo x > /dev/stderr", "echo >&-", "head -c 8 /dev/urandom"}},
	{Name: "a redirection of a group", In: []string{"{ echo a; echo b; } > out", "(echo a) > out"}, Want: []string{"w /p/out"}},
	{Name: ">& with a file name writes it", In: []string{"echo x >& log"}, Want: []string{"w /p/log"}},
	{Name: "exec with only a redirection", In: []string{"exec 3> /tmp/x"}, Want: []string{"w /tmp/x"}},
	{Name: "redirection to a variable is unknown", In: []string{"echo x > $OUT", "echo x > $(mktemp)"}, Unknown: true},

	// Reads.
	{Name: "cat family reads its operands", In: []string{"cat a b", "cat -n a b", "tac a b", "nl a b", "head -n 5 a b", "head -5 a b", "tail -f a b", "tail -n +2 a b", "wc -l a b", "sort -u a b", "base64 a b", "base32 a b", "od -c a b", "strings a b", "md5sum a b", "sha1sum a b", "sha256sum a b", "sha512sum a b", "b2sum a b", "cksum a b", "less a b", "more a b", "cut -d, -f1 a b", "paste a b", "comm a b", "join a b", "fold a b", "fmt a b", "rev a b", "column a b", "hexdump -C a b", "file a b", "stat a b", "readlink -f a b", "realpath a b", "diff -u a b", "cmp a b", "zcat a b", "bzcat a b", "xzcat a b", "zstdcat a b", "zless a b", "zmore a b", "jq . a b", "yq '.x' a b", "shuf a b", "iconv -f utf8 -t ascii a b"}, Want: []string{"r /p/a", "r /p/b"}},
	{Name: "listing reads the directory", In: []string{"ls", "ls -la", "du -sh", "tree", "tree -L 2", "find", "find . -name x", "rg foo", "grep -r foo"}, Want: []string{"r /p"}},
	{Name: "listing a named directory", In: []string{"ls ../o", "ls -la ../o", "du -sh ../o", "tree ../o", "find ../o -type f", "stat ../o", "file ../o"}, Want: []string{"r /o"}},
	{Name: "grep reads files after the pattern", In: []string{"grep KEY .env", "grep -n KEY .env", "grep -e KEY .env", "grep -rn KEY .env", "egrep 'a|b' .env", "fgrep -i k .env", "rg KEY .env", "rg -e KEY .env", "awk '{print}' .env", "gawk '{print}' .env", "mawk '{print}' .env", "nawk '{print}' .env", "busybox-awk '{print}' .env", "awk -F: '{print $1}' .env", "sed -n 1p .env", "sed 's/a/b/' .env", "sed -e 's/a/b/' .env", "jq -r .a .env"}, Want: []string{"r /p/.env"}},
	{Name: "source reads a file and runs its commands", In: []string{"source .env", ". .env"}, Unknown: true},
	{Name: "grep with a pattern file", In: []string{"grep -f pats .env", "grep --file=pats .env"}, Want: []string{"r /p/.env", "r /p/pats"}},
	{Name: "grep --include names files below", In: []string{"grep -r --include='.env*' KEY ."}, Want: []string{"r /p", "rp /p/**/.env*"}},
	{Name: "rg -g names files below", In: []string{"rg -g '*.pem' KEY", "rg --glob='*.pem' KEY"}, Want: []string{"r /p", "rp /p/**/*.pem"}},
	{Name: "no file operands", In: []string{"echo hi", "printf '%s' x", "pwd", "true", "false", "date", "env", "whoami", "id", "uname -a", "hostname", "which go", "type ls", "sleep 1", "seq 3", "yes | head -1", "expr 1 + 2", "basename a/b", "dirname a/b", "test -f x", "[ -f x ]", "tr a b", "nproc", "ps aux", "df -h", "free -m", "uptime", "clear", "history", "jobs", "kill 1", "alias", "alias ll", "hash", "hash -r", "umask 022", "printenv HOME", "exit 0", "shift", "set -e", "declare x=1", "local x=1", "export A=1", "command -v ls", "f=x", "time true", "timeout 5 true"}},

	// Writes.
	{Name: "write commands write their operands", In: []string{"rm a b", "rm -f a b", "rmdir a b", "touch a b", "mkdir -p a b", "mkdir -m 755 a b", "truncate -s 0 a b", "tee a b", "tee -a a b", "mkfifo a b", "chmod 600 a b", "chmod -x a b", "chmod +x a b", "chmod u+rw a b", "chown root a b", "chgrp staff a b", "sed -i 's/a/b/' a b", "sed -ni 's/a/b/p' a b", "sed --in-place 's/a/b/' a b", "yq -i '.a=1' a b", "gunzip a b"}, Want: []string{"w /p/a", "w /p/b"}},
	{Name: "yq e: the expression may be a file (kislyuk's yq reads it)", In: []string{"yq e '.x' a b", "yq eval '.x' a b"}, Want: []string{"r /p/.x", "r /p/a", "r /p/b"}},
	{Name: "perl -i runs its script on the operands", In: []string{"perl -pi x.pl a b", "perl -i -p x.pl a b"}, Want: []string{"r /p/x.pl", "w /p/a", "w /p/b"}},
	{Name: "sed -iSUFFIX and perl -iSUFFIX write a backup", In: []string{"sed -i.bak -e 's/a/b/' a b", "sed -ni.bak 's/a/b/p' a b", "sed --in-place=.bak 's/a/b/' a b", "sed -i'*.bak' 's/a/b/' a b"}, Want: []string{"w /p/a", "w /p/a.bak", "w /p/b", "w /p/b.bak"}},
	{Name: "perl -i.bak", In: []string{"perl -i.bak -p x.pl a b", "perl -pi.bak x.pl a b"}, Want: []string{"r /p/x.pl", "w /p/a", "w /p/a.bak", "w /p/b", "w /p/b.bak"}},
	{Name: "a backup named with *", In: []string{"sed -i'old_*' 's/a/b/' d/a"}, Want: []string{"w /p/d/a", "w /p/d/old_a"}},
	{Name: "a backup in another directory is unknown", In: []string{"sed -i'bak/*' 's/a/b/' a"}, Unknown: true},
	{Name: "an i inside -e's script is no -i", In: []string{"sed -es/i/x/ a"}, Want: []string{"r /p/a"}},
	{Name: "a script file is read", In: []string{"sh s.sh", "bash -e s.sh", "python3 s.sh", "node s.sh", "perl s.sh", "python3 -u s.sh x",
		"python s.sh", "python2 s.sh", "pypy s.sh", "pypy3 s.sh", "nodejs s.sh", "bun s.sh", "php s.sh", "lua s.sh", "luajit s.sh", "Rscript s.sh",
		"osascript s.sh", "pwsh s.sh", "powershell s.sh", "tclsh s.sh", "wish s.sh", "julia s.sh", "dash s.sh", "ksh s.sh", "mksh s.sh", "fish s.sh"}, Want: []string{"r /p/s.sh"}},
	{Name: "gzip replaces FILE with FILE.gz", In: []string{"gzip a", "gzip -9 a", "gzip -f -- a", "gzip --best a"}, Want: []string{"w /p/a", "w /p/a.gz"}},
	{Name: "gzip -S names the suffix", In: []string{"gzip -S .z a", "gzip --suffix=.z a"}, Want: []string{"w /p/a", "w /p/a.z"}},
	{Name: "bzip2, xz and lzma", In: []string{"bzip2 a", "bzip2 -z a"}, Want: []string{"w /p/a", "w /p/a.bz2"}},
	{Name: "xz", In: []string{"xz a", "xz -T0 a", "xz -T 4 a", "xz -9e a"}, Want: []string{"w /p/a", "w /p/a.xz"}},
	{Name: "lzma", In: []string{"lzma a"}, Want: []string{"w /p/a", "w /p/a.lzma"}},
	{Name: "zstd keeps its input", In: []string{"zstd a", "zstd -19 a", "zstd -T0 a"}, Want: []string{"r /p/a", "w /p/a.zst"}},
	{Name: "zstd --rm", In: []string{"zstd --rm a"}, Want: []string{"w /p/a", "w /p/a.zst"}},
	{Name: "zstd -o names the output", In: []string{"zstd -o out a", "zstd a -o out"}, Want: []string{"r /p/a", "w /p/out"}},
	{Name: "decompressing replaces FILE.gz with FILE", In: []string{"gunzip a.gz", "gzip -d a.gz", "gzip --decompress a.gz", "gunzip -f a.gz"}, Want: []string{"w /p/a", "w /p/a.gz"}},
	{Name: "gunzip .tgz writes .tar", In: []string{"gunzip a.tgz"}, Want: []string{"w /p/a.tar", "w /p/a.tgz"}},
	{Name: "bunzip2", In: []string{"bunzip2 a.bz2", "bzip2 -d a.bz2"}, Want: []string{"w /p/a", "w /p/a.bz2"}},
	{Name: "unxz and unlzma", In: []string{"unxz a.xz", "xz -d a.xz"}, Want: []string{"w /p/a", "w /p/a.xz"}},
	{Name: "unlzma", In: []string{"unlzma a.lzma"}, Want: []string{"w /p/a", "w /p/a.lzma"}},
	{Name: "unzstd keeps its input", In: []string{"unzstd a.zst", "zstd -d a.zst"}, Want: []string{"r /p/a.zst", "w /p/a"}},
	{Name: "-k keeps the input", In: []string{"gzip -k a", "gzip --keep a"}, Want: []string{"r /p/a", "w /p/a.gz"}},
	{Name: "-r replaces every file below", In: []string{"gzip -r d", "gunzip -r d"}, Want: []string{"wR /p/d"}},
	{Name: "compressors reading file lists or changing formats are unknown", In: []string{"xz --files=list", "zstd --filelist=list", "xz --format=lzma a", "zstd --output-dir-flat=o a", "gzip -S $S a"}, Unknown: true},
	{Name: "recursive deletes", In: []string{"rm -rf a", "rm -r a", "rm -R -f a", "rm --recursive a"}, Want: []string{"wR /p/a"}},
	{Name: "touch -r reads its reference", In: []string{"touch -r ref a", "touch --reference=ref a"}, Want: []string{"r /p/ref", "w /p/a"}},
	{Name: "cp reads sources and writes the destination", In: []string{"cp a b d", "cp -a a b d", "cp -r a b d", "cp -t d a b", "cp --target-directory=d a b", "install -m 644 a b d", "rsync -avz a b d", "scp a b d"}, Want: []string{"r /p/a", "r /p/b", "w /p/d"}},
	{Name: "mv writes sources and destination", In: []string{"mv a b d", "mv -f a b d", "mv -t d a b"}, Want: []string{"w /p/a", "w /p/b", "w /p/d"}},
	{Name: "a hard link reads and writes its source", In: []string{"ln a l", "ln -f a l"}, Want: []string{"r /p/a", "w /p/a", "w /p/l"}},
	{Name: "a symbolic link writes only its name", In: []string{"ln -s a l", "ln -sf a l", "ln -s -T a l"}, Want: []string{"w /p/l"}},
	{Name: "cp -l is a hard link", In: []string{"cp -l a d"}, Want: []string{"w /p/a", "w /p/d"}},
	{Name: "remote copy operands are not files", In: []string{"scp host:x d", "rsync -a user@host:/x d", "curl -o d https://example.com/x"}, Want: []string{"w /p/d"}},
	{Name: "install -d creates directories", In: []string{"install -d a"}, Want: []string{"w /p/a"}},
	{Name: "dd if and of", In: []string{"dd if=a of=b bs=1", "dd bs=1 of=b if=a count=1"}, Want: []string{"r /p/a", "w /p/b"}},
	{Name: "dd from a device", In: []string{"dd if=/dev/zero of=/etc/x bs=1"}, Want: []string{"w /etc/x"}},
	{Name: "uniq and xxd write a second operand", In: []string{"uniq a b", "xxd a b"}, Want: []string{"r /p/a", "w /p/b"}},
	{Name: "sort -o writes", In: []string{"sort -o b a", "sort --output=b a"}, Want: []string{"r /p/a", "w /p/b"}},
	{Name: "tar -c writes the archive, reads members", In: []string{"tar czf a.tgz src", "tar -czf a.tgz src", "tar -c -f a.tgz src", "tar --create --file a.tgz src"}, Want: []string{"r /p/src", "w /p/a.tgz"}},
	{Name: "tar -x writes into -C or the working directory", In: []string{"tar -xzf a.tgz -C out", "tar xf a.tgz -C out", "tar --extract --file=a.tgz --directory=out"}, Want: []string{"r /p/a.tgz", "wR /p/out"}},
	{Name: "tar -x without -C", In: []string{"tar xf a.tgz"}, Want: []string{"r /p/a.tgz", "wR /p"}},
	{Name: "tar -t only reads", In: []string{"tar tf a.tgz", "tar -tzvf a.tgz"}, Want: []string{"r /p/a.tgz"}},
	{Name: "unzip extracts into -d", In: []string{"unzip a.zip -d out", "unzip -o a.zip -d out"}, Want: []string{"r /p/a.zip", "wR /p/out"}},
	{Name: "unzip -l only reads", In: []string{"unzip -l a.zip"}, Want: []string{"r /p/a.zip"}},
	{Name: "zip writes the archive, reads inputs", In: []string{"zip a.zip x", "zip -r a.zip x"}, Want: []string{"r /p/x", "w /p/a.zip"}},
	{Name: "gzip -c and -k", In: []string{"gzip -c a", "gunzip -t a"}, Want: []string{"r /p/a"}},
	{Name: "curl writes -o and reads uploads", In: []string{"curl --output out https://x -T up", "curl -o out -d @up https://x", "curl -o out --data-binary @up https://x", "curl -o out -F f=@up https://x"}, Want: []string{"r /p/up", "w /p/out"}},
	{Name: "curl reads the files of its data and header options", In: []string{"curl --data-urlencode k@up https://x", "curl --data-urlencode @up https://x", "curl -H @up https://x", "curl -F 'f=<up;type=text/plain' https://x", "curl --json @up https://x"}, Want: []string{"r /p/up"}},
	{Name: "curl -o out only", In: []string{"curl -o out https://x", "curl -sSo out https://x", "curl -L -o out https://x"}, Want: []string{"w /p/out"}},
	{Name: "curl -O writes into the working directory", In: []string{"curl -O https://x/f"}, Want: []string{"w /p"}},
	{Name: "curl to stdout has no target", In: []string{"curl -s https://x", "curl -o - https://x", "curl --data-raw @up https://x"}},
	{Name: "wget -O writes", In: []string{"wget -O out https://x", "wget --output-document=out https://x"}, Want: []string{"w /p/out"}},
	{Name: "wget writes into the working directory", In: []string{"wget https://x/f", "wget -q https://x"}, Want: []string{"wR /p"}},
	{Name: "git paths", In: []string{"git checkout -- .env", "git restore .env", "git rm .env", "git rm --cached .env"}, Want: []string{"r /p", "w /p/.env"}},
	{Name: "git mv", In: []string{"git mv a b"}, Want: []string{"r /p", "w /p/a", "w /p/b"}},
	{Name: "git rewriting the work tree writes it", In: []string{"git checkout main", "git switch main", "git reset --hard", "git stash", "git pull", "git merge x", "git rebase main"}, Want: []string{"r /p", "w /p"}},
	{Name: "git clean", In: []string{"git clean -fdx"}, Want: []string{"r /p", "wR /p"}},
	{Name: "git reads hidden in revisions", In: []string{"git show HEAD:.env", "git cat-file -p HEAD:.env", "git diff -- .env", "git log -p -- .env", "git show HEAD -- .env"}, Want: []string{"r /p", "r /p/.env"}},
	{Name: "git reads the repository it works on", In: []string{"git status", "git log --oneline", "git diff", "git add -A", "git commit -m x", "git push origin main", "git fetch", "git branch -a", "git -c color.ui=false status", "git -c user.name=x commit -m y"}, Want: []string{"r /p"}},
	{Name: "git reads a repository outside", In: []string{"git -C ../o log -p", "cd ../o && git status"}, Want: []string{"r /o"}},
	{Name: "git without a repository", In: []string{"git --version", "git help log", "git version", "git ls-remote https://x/r.git"}},
	{Name: "git options and keys that run a command are inline code", In: []string{
		"git -c core.fsmonitor='touch x' status", "git -c core.pager=x log", "git -c alias.st='!rm x' st", "git -c Core.SSHCommand=x fetch",
		"git -c diff.external=x diff", "git -c filter.a.clean=x add .", "git -c credential.helper=x push", "git -c include.path=../x status",
		"git --config-env=core.pager=P log", "git -c $K=v status", "git --exec-path=. status", "git --git-dir=../o/.git status",
		"git config core.fsmonitor 'rm -rf ~'", "git config set core.hooksPath h", "git config --local alias.x '!sh'", "git config --global core.editor vim",
		"git config edit"}, Unknown: true},
	{Name: "harmless git -c keys", In: []string{"git config user.email", "git config --get core.fsmonitor", "git config -l", "git config user.email a@b"}},
	{Name: "git config --global and --file write the file", In: []string{"git config --global user.email a@b", "git config --global --unset user.email"}, Want: []string{"w /h/.gitconfig"}},
	{Name: "git config --file names the file", In: []string{"git config --file c user.email a@b", "git config --file=c user.email a@b", "git config -f c user.email a@b"}, Want: []string{"w /p/c"}},
	{Name: "variables naming a program or code make the command unknown", In: []string{
		"GIT_EXTERNAL_DIFF='rm -rf ~' git diff", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x git status",
		"PAGER='rm x' man ls", "LD_PRELOAD=./x.so ls", "env GIT_SSH_COMMAND=x git fetch", "export GIT_PAGER=x; git log",
		"PATH=.:$PATH ls", "PATH=/tmp/x ls", "BASH_ENV=x bash s.sh", "declare -x EDITOR=x", "CDPATH=/ ; cd etc"}, Unknown: true},
	{Name: "options whose value is a command", In: []string{"rsync -e 'sh -c x' a h:b", "rsync --rsh=x a h:b", "scp -S x a h:b", "scp -o ProxyCommand=x a h:b", "scp -o 'LocalCommand x' a h:b", "sort --compress-program=x f", "zip -TT 'rm x' a.zip f", "zip --unzip-command='rm x' a.zip f"}, Unknown: true},
	{Name: "scp -o without a command", In: []string{"scp -o StrictHostKeyChecking=no a h:b"}, Want: []string{"r /p/a"}},
	{Name: "safezone init writes the project's setup", In: []string{"safezone init", "/usr/local/bin/safezone init --host claude"}, Want: []string{"w /p/.claude/settings.json", "w /p/.gitignore", "w /p/.safezone.yaml", "w /p/agent_sandbox/.gitignore"}},
	{Name: "safezone init --user writes the user's", In: []string{"safezone init --user"}, Want: []string{"w /h/.claude/settings.json", "w /h/.config/safezone/policy.yaml"}},
	{Name: "other safezone commands only read", In: []string{"safezone init --dry-run", "safezone explain", "safezone validate", "safezone policy"}},
	{Name: "aliases and hashed paths change what a name runs", In: []string{"alias cat='rm -rf'", "hash -p ./x cat", "enable -f x.so y", "enable -n cd"}, Unknown: true},
	{Name: "git -C moves the directory", In: []string{"git -C ../o checkout -- x"}, Want: []string{"r /o", "w /o/x"}},
	{Name: "git clone writes its destination", In: []string{"git clone https://x/repo.git", "git clone https://x/repo.git repo"}, Want: []string{"wR /p/repo"}},
	{Name: "git archive writes its -o file", In: []string{"git archive -o out.zip HEAD", "git archive --output=out.zip HEAD", "git archive --format=zip -o out.zip HEAD"}, Want: []string{"r /p", "w /p/out.zip"}},
	{Name: "git init writes the directory it makes", In: []string{"git init -q newrepo", "git init --quiet newrepo"}, Want: []string{"w /p/newrepo"}},
	{Name: "git blame reads its file", In: []string{"git blame a", "git blame -- a", "git annotate a", "git blame -w -- a"}, Want: []string{"r /p", "r /p/a"}},
	{Name: "git show reads REV:./PATH as PATH", In: []string{"git show HEAD:./a", "git cat-file -p HEAD:./a", "git show -s HEAD:a"}, Want: []string{"r /p", "r /p/a"}},
	{Name: "git global options that change nothing of the targets", In: []string{"git --namespace n status", "git --no-pager status", "git --literal-pathspecs status"}, Want: []string{"r /p"}},
	{Name: "a git subcommand not in the table, or an attached -c, is unknown", In: []string{"git frobnicate", "git -cuser.name=x status", "git --work-tree=w status"}, Unknown: true},
	{Name: "find -delete writes the start directory", In: []string{"find ../o -name '*.txt' -delete", "find ../o -delete"}, Want: []string{"r /o", "wR /o"}},
	{Name: "find -exec applies the command's access to DIR/**/NAME", In: []string{"find . -name '*.pem' -exec rm {} \\;", "find . -name '*.pem' -exec rm -f {} +"}, Want: []string{"r /p", "w /p", "wp /p/**/*.pem"}},
	{Name: "find -exec reading", In: []string{"find . -name '.env*' -exec cat {} \\;"}, Want: []string{"r /p", "rp /p/**/.env*"}},
	{Name: "find -exec without -name applies to DIR", In: []string{"find src -type f -exec rm {} \\;"}, Want: []string{"r /p/src", "wR /p/src"}},
	{Name: "find -fprint writes", In: []string{"find . -fprint out"}, Want: []string{"r /p", "w /p/out"}},
	{Name: "find -fprintf, -fprint0 and -fls write", In: []string{"find . -fprintf out '%p\\n'", "find . -name a -fprint0 out", "find . -fls out"}, Want: []string{"r /p", "w /p/out"}},
	{Name: "find -newer reads its reference file", In: []string{"find . -newer ref", "find . -anewer ref -name a", "find . -samefile ref"}, Want: []string{"r /p", "r /p/ref"}},
	{Name: "find -newerXY takes a time, no file", In: []string{"find . -newermt 2000-01-01", "find . -newerat 2000-01-01 -type f"}, Want: []string{"r /p"}},

	// Wrappers.
	{Name: "wrappers are stripped", In: []string{"sudo rm x", "sudo -u root rm x", "sudo -E -n rm x", "env rm x", "env -i rm x", "env -u A rm x", "env A=1 B=2 rm x", "A=1 rm x", "command rm x", "builtin rm x", "exec rm x", "nice rm x", "nice -n 10 rm x", "nohup rm x", "time rm x", "timeout 5 rm x", "timeout -s KILL 5 rm x", "stdbuf -oL rm x", "ionice -c 3 rm x", "doas rm x", "sudo nice -n 5 timeout 3 rm x", "/bin/rm x", "\\rm x", "'rm' x", "\"rm\" x"}, Want: []string{"w /p/x"}},
	{Name: "scheduling and prefix-named outputs are unknown", In: []string{"batch", "echo rm x | batch", "csplit f 5", "csplit -f part f /x/"}, Unknown: true},
	{Name: "dirs touches nothing", In: []string{"dirs", "dirs -v"}},
	{Name: "read, readarray and unset only set variables", In: []string{"read X", "read -r X < /dev/stdin", "readarray -t L", "unset X", "unset -f f"}},
	{Name: "a variable set by read, readarray or unset is not static", In: []string{"read X; rm $X", "readarray L; rm $L", "V=a; unset V; rm $V"}, Unknown: true},
	{Name: "sudo -i runs a shell", In: []string{"sudo -i", "sudo -s"}, Unknown: true},
	{Name: "wrapper options that run a shell, an editor or elsewhere are unknown", In: []string{"sudo -e x", "sudo --login", "env -S 'rm x'", "env --split-string='rm x'", "env -C d rm x", "env --chdir=d rm x", "sudo -Z rm x", "timeout --bogus 5 rm x"}, Unknown: true},

	// cd tracking.
	{Name: "cd && resolves against the new directory", In: []string{"cd .. && rm -rf other", "cd /p/.. && rm -rf other", "pushd .. && rm -rf other"}, Want: []string{"wR /other"}},
	{Name: "cd ; keeps both directories", In: []string{"cd .. ; touch x", "cd ..\ntouch x"}, Want: []string{"w /p/x", "w /x"}},
	{Name: "cd in a subshell does not leak", In: []string{"(cd ..); touch x", "(cd .. && true); touch x"}, Want: []string{"w /p/x"}},
	{Name: "cd without a directory goes home", In: []string{"cd && touch x"}, Want: []string{"w /h/x"}},
	{Name: "cd to a variable makes relative targets unknown", In: []string{"cd $D && touch x", "cd - && touch x"}, Unknown: true},
	{Name: "cd then an absolute target", In: []string{"cd $D && touch /tmp/x"}, Want: []string{"w /tmp/x"}},
	{Name: "popd restores", In: []string{"pushd /tmp && popd && touch x"}, Want: []string{"w /p/x"}},

	// Static words.
	{Name: "home and variables from the environment", In: []string{"cat ~/x", "cat $HOME/x", "cat ${HOME}/x", "cat \"$HOME\"/x", "cat \"$HOME/x\"", "cat $PWD/../h/x", "cat $CLAUDE_PROJECT_DIR/../h/x"}, Want: []string{"r /h/x"}},
	{Name: "literal variables assigned earlier", In: []string{"V=.env; cat \"$V\"", "V=.env\ncat $V", "export V=.env; cat $V", "declare V=.env; cat $V"}, Want: []string{"r /p/.env"}},
	{Name: "ANSI-C quoting is decoded", In: []string{"$'\\x72\\x6d' x", "$'rm' x", "$'\\162\\155' x", "$'\\u0072m' x", "$'\\U00000072m' x"}, Want: []string{"w /p/x"}},
	{Name: "ANSI-C escapes bash does not know stay as written", In: []string{"cat $'\\q' $'\\xq'"}, Want: []string{"r /p/\\q", "r /p/\\xq"}},
	{Name: "quoted names", In: []string{"cat '.env'", "cat \".env\"", "cat .e'n'v", "cat \\.env"}, Want: []string{"r /p/.env"}},
	{Name: "brace expansion", In: []string{"rm {a,b}", "rm x{a,b}y"}, Want: nil},
	{Name: "globs are glob targets", In: []string{"rm ../*.txt"}, Want: []string{"wg /p/../*.txt"}},
	{Name: "quoted glob characters are literal", In: []string{"cat '*.txt'", "cat \\*.txt"}, Want: []string{"r /p/*.txt"}},

	// Unknown-makers.
	{Name: "dynamic words in target positions", In: []string{"rm $X", "rm \"$X\"", "rm ${X:-y}", "rm $(ls)", "rm `ls`", "rm $((1+1))", "cat <(ls)", "rm ~root/x", "rm $X/y", "V=$(pwd); rm $V"}, Unknown: true},
	{Name: "a variable assigned in a branch is unknown", In: []string{"if true; then V=a; fi; rm $V", "true && V=a; rm $V", "for V in a b; do rm $V; done"}, Unknown: true},
	{Name: "inline code", In: []string{"eval \"$CMD\"", "eval 'rm x'", "python3 -c 'print(1)'", "python -c x", "node -e x", "node --eval x", "perl -e 'print 1'", "ruby -e x", "php -r x", "deno eval x", "bash -s", "sh", "bash <<EOF\nrm x\nEOF", "python3 <<EOF\nprint(1)\nEOF", "python3 -", "osascript -e x"}, Unknown: true},
	{Name: "xargs feeding a reader or writer", In: []string{"ls | xargs rm", "find . | xargs -0 cat", "xargs -I{} cp {} /tmp"}, Unknown: true},
	{Name: "find -exec with an unknown program", In: []string{"find . -exec python3 x.py {} \\;"}, Unknown: true},
	{Name: "programs that run other commands", In: []string{"watch ls", "tmux send-keys 'rm x' Enter", "screen -X stuff x", "crontab x", "at now", "patch -p1 < x.diff", "split x part", "rg --pre cat foo"}, Unknown: true},
	{Name: "options not in the table", In: []string{"rm --frobnicate x", "cat -Z x", "cp --frob a b"}, Unknown: true},
	{Name: "sed and awk that touch other files", In: []string{"sed 'w out' in", "sed -n '1w out' in", "sed 's/a/b/w out' in", "sed 'e ls' in", "awk '{print > \"out\"}' in", "awk '{system(\"rm x\")}' in", "awk '{print | \"sh\"}' in", "sed -f script in"}, Unknown: true},
	{Name: "parse errors and limits", In: []string{"echo \"unterminated", "if then fi", "echo (", strings.Repeat("x", 64<<10+1)}, Unknown: true},
	{Name: "a dynamic program name", In: []string{"$CMD x", "\"$(which rm)\" x"}, Unknown: true},

	// Recursion and composition.
	{Name: "bash -c is parsed", In: []string{"bash -c 'rm x'", "sh -c 'rm x'", "zsh -c \"rm x\"", "bash -lc 'rm x'", "sudo bash -c 'rm x'", "bash -c 'bash -c \"rm x\"'"}, Want: []string{"w /p/x"}},
	{Name: "every part of a list and pipeline", In: []string{"ls; rm x", "ls && rm x", "ls || rm x", "ls | tee x", "ls & rm x", "if ls; then rm x; fi", "until ls; do rm x; done"}, Want: []string{"r /p", "w /p/x"}},
	{Name: "every compound command", In: []string{"while false; do rm x; done", "case a in a) rm x;; esac", "f() { rm x; }", "{ rm x; }", "(rm x)", "! rm x", "time rm x", "for i in 1 2; do rm x; done", "if false; then :; else rm x; fi", "[[ -f y ]] && rm x"}, Want: []string{"w /p/x"}},
	{Name: "substitutions are commands", In: []string{"echo \"$(cat .env)\"", "echo `cat .env`", "X=$(cat .env)", "echo $(cat .env) > /dev/null"}, Want: []string{"r /p/.env"}},
	{Name: "a process substitution as an operand is unknown", In: []string{"diff <(cat .env) -"}, Unknown: true},
	{Name: "a trap's command", In: []string{"trap 'rm -f x' EXIT"}, Want: []string{"w /p/x"}},
	{Name: "proc files are reads", In: []string{"cat /proc/self/environ"}, Want: []string{"r /proc/self/environ"}},
}
