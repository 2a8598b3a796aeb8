package classify

import "syscall"

// sysFstatat is fstatat(2)'s number, as syscall.Lstat calls it here.
const sysFstatat = syscall.SYS_NEWFSTATAT
