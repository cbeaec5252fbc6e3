//go:build !unix

package trialstore

import "os"

// canWrite reports whether path can be opened for writing where access(2) is not available;
// a directory is taken as writable.
func canWrite(path string, dir bool) bool {
	if dir {
		return true
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	_ = f.Close()
	return true
}
