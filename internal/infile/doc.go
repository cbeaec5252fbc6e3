// Package infile opens the files gctune's commands read (cost files, measured runs, config
// files, profiles) so that no read is without bound and no wait is without end.
//
// A FIFO, or a pipe (a shell's process substitution, <(zcat run.csv.gz), is /dev/fd/63), has
// no size and blocks in open(2) until a writer comes. Open and Do wait for it in a goroutine
// and return as soon as the context is cancelled (the first SIGINT), instead of after a second
// one; the goroutine left blocked ends with the process. ReadAll reads at most limit+1 bytes,
// whatever the file is, so that /dev/zero or an endless pipe is refused, not read whole.
package infile
