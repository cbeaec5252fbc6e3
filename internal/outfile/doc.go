// Package outfile writes the files gctune's commands produce (export -o, report -o and --png,
// lifetimes --plot, simulate --events) without harming what is already there.
//
// Write replaces a regular file atomically (a temporary file in the same directory, renamed
// over the target only once it is complete), keeping the existing file's permission bits; a new
// file is created the same way with the usual 0666 less the umask. A symbolic link is followed
// and its target written, so the link stays. A device or a FIFO (/dev/null, a named pipe read by
// another process) is written in place: renaming a file over it would replace it. No temporary
// file is left behind, whether the write fails, panics or is cancelled, and no error names one.
//
// Check is the cheap preflight a command runs before any work: the target is not a directory,
// its directory exists and can take a new file, a device or FIFO can be opened for writing.
//
// Every error Write and Check return is an *Error, so that the command line can tell an
// unwritable output (the user's to fix) from other failures.
package outfile
