//go:build unix

package outfile

import "syscall"

// writable asks the kernel whether the process may write path (a directory: create files in
// it), without opening it: opening a FIFO for writing would block until a reader comes.
func writable(path string, dir bool) error {
	mode := uint32(0x2) // W_OK
	if dir {
		mode |= 0x1 // X_OK: search, to reach the new file
	}
	return syscall.Access(path, mode)
}
