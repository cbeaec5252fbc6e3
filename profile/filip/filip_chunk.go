package filip

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gctune/gctune/profile"
)

// Parallel parsing: a CSV with random access is cut into chunks at line boundaries, at least
// filipChunkBytes each, parsed by up to filipMaxWorkers goroutines.
const (
	filipChunkBytes = 1 << 20
	filipMaxWorkers = 8
)

// filipHeaderWindow is how far into a file readParallel looks for the header.
const filipHeaderWindow = 1 << 20

// readParallel parses the CSV in chunks, in parallel. It reads the header itself (exactly as
// handleLine would), cuts the rest into chunks that end at line ends, parses each in a worker
// with its own raw columns and class table, and appends the workers' results in file order:
// line numbers in messages, the class table's order of first appearance, the rows and the
// skipped rows come out exactly as a sequential read gives them. It reports false, having read
// nothing, when the header does not end within the first filipHeaderWindow bytes (the caller
// then reads sequentially).
func (r *filipReader) readParallel(at io.ReaderAt, size int64, tune filipTuning) (bool, error) {
	var window []byte
	for l := min(size, 64<<10); len(window) == 0; l = min(size, filipHeaderWindow) {
		window = make([]byte, l)
		if _, err := at.ReadAt(window, 0); err != nil && err != io.EOF {
			return false, fmt.Errorf("filip: %s: %w", r.name, err)
		}
		if bytes.IndexByte(window, '\n') < 0 && l < min(size, filipHeaderWindow) {
			window = nil // look further
		}
	}
	var header []byte
	lines, off := 0, 0
	for header == nil {
		i := bytes.IndexByte(window[off:], '\n')
		if i < 0 {
			return false, nil
		}
		line := window[off : off+i]
		lines++
		off += i + 1
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if len(line) > 0 {
			header = line
		}
	}
	r.line = lines
	if err := r.header(header); err != nil {
		return true, err
	}

	chunkBytes, workers := tune.chunkBytes, tune.workers
	if chunkBytes <= 0 {
		chunkBytes = filipChunkBytes
	}
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0), filipMaxWorkers)
	}
	start := int64(off)
	k := int(min(int64(workers), max((size-start)/chunkBytes, 1)))
	var bounds []int64 // chunk i is [bounds[i], bounds[i+1])
	bounds = append(bounds, start)
	for i := 1; i < k; i++ {
		b, err := nextLineStart(at, max(start+(size-start)*int64(i)/int64(k), bounds[len(bounds)-1]), size)
		if err != nil {
			return true, fmt.Errorf("filip: %s: %w", r.name, err)
		}
		if b > bounds[len(bounds)-1] && b < size {
			bounds = append(bounds, b)
		}
	}
	bounds = append(bounds, size)
	if bounds[0] == size {
		return true, nil // nothing after the header
	}

	ws := make([]*filipReader, len(bounds)-1)
	var shared [2]atomic.Int64
	errs := make([]error, len(ws))
	var wg sync.WaitGroup
	for i := range ws {
		w := newFiLiPReader(r.name, r.opts, r.slowRows)
		w.layout, w.siteShape, w.sharedNames = r.layout, r.siteShape, &shared
		ws[i] = w
		from, to := bounds[i], bounds[i+1]
		wg.Go(func() { errs[i] = w.readCSV(io.NewSectionReader(at, from, to-from), to-from) })
	}
	wg.Wait()

	// Merge in file order.
	lineBase := r.line
	for i, w := range ws {
		if err := errs[i]; err != nil {
			var rowErr *RowError
			if errors.As(err, &rowErr) {
				rowErr.Line += lineBase
			}
			return true, err
		}
		for _, e := range w.firstSkipped {
			e.Line += lineBase
		}
		lineBase += w.line
	}
	r.line = lineBase
	total := 0
	for _, w := range ws {
		total += len(w.birth)
	}
	globalIndex := make(map[string]uint32)
	globalSites := make(map[string]uint32)
	for _, w := range ws {
		if err := r.mergeSites(w, globalSites); err != nil {
			return true, err
		}
		global := make([]uint32, len(w.names))
		for li, name := range w.names {
			gi, ok := globalIndex[name]
			if !ok {
				gi = uint32(len(r.names))
				r.names = append(r.names, name)
				r.classBytes += len(name)
				globalIndex[name] = gi
				if err := profile.CheckNameTable("class", len(r.names), r.classBytes); err != nil {
					return true, fmt.Errorf("filip: %s: %w: refused", r.name, err)
				}
			}
			global[li] = gi
		}
		for li, c := range w.class {
			w.class[li] = global[c]
		}
		if len(ws) == 1 {
			r.class, r.size, r.birth, r.death, r.forced = w.class, w.size, w.birth, w.death, w.forced
			r.site = w.site
		} else {
			if r.birth == nil {
				r.class, r.size = make([]uint32, 0, total), make([]uint32, 0, total)
				r.birth, r.death = make([]float64, 0, total), make([]float64, 0, total)
				r.forced = make([]bool, 0, total)
			}
			r.class = append(r.class, w.class...)
			r.size = append(r.size, w.size...)
			r.birth = append(r.birth, w.birth...)
			r.death = append(r.death, w.death...)
			r.forced = append(r.forced, w.forced...)
			if w.site != nil {
				r.site = append(r.site, w.site...)
			}
		}
		r.report.SkippedRows += w.report.SkippedRows
		r.firstSkipped = append(r.firstSkipped, w.firstSkipped[:min(len(w.firstSkipped), 10-len(r.firstSkipped))]...)
		*w = filipReader{} // let the worker's columns go
	}
	return true, nil
}

// nextLineStart returns the offset just after the first '\n' at or after from, or size if
// there is none.
func nextLineStart(at io.ReaderAt, from, size int64) (int64, error) {
	buf := make([]byte, 4096)
	for from < size {
		n, err := at.ReadAt(buf[:min(int64(len(buf)), size-from)], from)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return from + int64(i) + 1, nil
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		if n == 0 {
			break
		}
		from += int64(n)
	}
	return size, nil
}
