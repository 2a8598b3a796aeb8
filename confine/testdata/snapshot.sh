# A shell snapshot in the form Claude Code 2.1.330 writes to
# ~/.claude/shell-snapshots/snapshot-bash-*.sh and sources before every Bash
# command (abridged: the real one has every shopt line and Claude Code's own
# rg, find, grep and pkill functions).
unalias -a 2>/dev/null || true
# Shopt
shopt -u autocd
shopt -s checkwinsize
shopt -s login_shell
shopt -u nullglob
# Functions
eval $'myfn () \n{ \n    echo "myfn-works:$#:$*"\n}' > /dev/null 2>&1
# Shell Options
set -o braceexpand
set -o hashall
set -o interactive-comments
set -o monitor
shopt -s expand_aliases
# Aliases
alias -- ll='echo ll-alias'
alias -- ll2='ll twice'
