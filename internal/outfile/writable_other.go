//go:build !unix

package outfile

import "os"

// writable checks only that path exists where access(2) is not available; Write reports any
// other failure.
func writable(path string, _ bool) error {
	_, err := os.Stat(path)
	return err
}
