package rawfile

import "syscall"

const sysFstatat = syscall.SYS_NEWFSTATAT
