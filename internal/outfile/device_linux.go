//go:build linux

package outfile

import (
	"io/fs"
	"syscall"
)

// discards reports whether st is one of Linux's memory devices (major 1) that are no sink for
// an output: /dev/zero, /dev/random, /dev/urandom, /dev/mem, /dev/port, /dev/kmsg. Writing
// into them "succeeds" and keeps nothing, or writes where no output belongs. /dev/null (1,3)
// is the sink everyone means and /dev/full (1,7) fails every write, which Write reports: both
// stay outputs.
func discards(st fs.FileInfo) bool {
	if st.Mode()&fs.ModeCharDevice == 0 {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	rdev := uint64(sys.Rdev)
	major := (rdev>>8)&0xfff | (rdev>>32)&^0xfff
	minor := rdev&0xff | (rdev>>12)&^0xff
	return major == 1 && minor != 3 && minor != 7
}
