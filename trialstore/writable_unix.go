//go:build unix

package trialstore

import "syscall"

// canWrite asks the kernel whether the process may write path (a directory: create files in
// it), without opening it.
func canWrite(path string, dir bool) bool {
	mode := uint32(0x2) // W_OK
	if dir {
		mode |= 0x1 // X_OK
	}
	return syscall.Access(path, mode) == nil
}
