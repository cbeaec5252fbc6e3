package lifetimes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ErrBadRow is wrapped by the error ReadFiLiP returns for a malformed CSV row (see FiLiPRowError).
var ErrBadRow = errors.New("lifetimes: bad FiLiP row")

// Clock is the clock a FiLiP / Illimani export stamps births and deaths with.
type Clock int

const (
	// ClockAuto lets ReadFiLiP detect the clock from the metadata and the timestamps.
	ClockAuto Clock = iota
	// ClockBytes is bytes allocated since start (VM parameter 34): Illimani v1.2 and later.
	ClockBytes
	// ClockMicros is microseconds: FiLiP and Illimani before v1.2.
	ClockMicros
)

// String returns the name ParseClock accepts: "auto", "bytes" or "us".
func (c Clock) String() string {
	switch c {
	case ClockAuto:
		return "auto"
	case ClockBytes:
		return "bytes"
	case ClockMicros:
		return "us"
	}
	return fmt.Sprintf("Clock(%d)", int(c))
}

// ParseClock parses "auto", "bytes" or "us" (case-insensitive, surrounding spaces ignored).
func ParseClock(s string) (Clock, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		return ClockAuto, nil
	case "bytes":
		return ClockBytes, nil
	case "us":
		return ClockMicros, nil
	}
	return ClockAuto, fmt.Errorf("lifetimes: unknown clock %q (want auto, bytes or us)", s)
}

// Names of the CSV layouts ReadFiLiP knows, as FiLiPReport.Layout reports them.
const (
	// FiLiPLayoutCurrent is the 8-column layout ending in textualAllocatorMethod,
	// textualAllocatorMethodOffset.
	FiLiPLayoutCurrent = "textualAllocatorMethod"
	// FiLiPLayoutAllocatorMethod is the older 8-column layout ending in allocatorMethod,
	// allocatorMethodByte.
	FiLiPLayoutAllocatorMethod = "allocatorMethod"
	// FiLiPLayoutForcedFinalization is the older 7-column layout ending in forcedFinalization.
	FiLiPLayoutForcedFinalization = "forcedFinalization"
)

// DefaultNearEndFraction is the NearEndFraction ReadFiLiP uses when the option is 0: deaths
// within 0.1 % of the run of the latest death count as force-finalized at the end.
const DefaultNearEndFraction = 0.001

// FiLiPOptions tunes ReadFiLiP. The zero value detects everything.
type FiLiPOptions struct {
	// JSONPath is the metadata file. Empty: the CSV path with its extension replaced by .json;
	// that default file may be missing (sampling rate 1 is then assumed, with a warning), an
	// explicitly named one may not. ReadFiLiPFrom uses it only to name the metadata in messages.
	JSONPath string
	// Clock forces the clock of the timestamps (ClockAuto, the zero value, detects it).
	Clock Clock
	// SkipBadRows skips malformed rows, counting them in the report, instead of failing on the
	// first one.
	SkipBadRows bool
	// NearEndFraction is how close to the latest death, as a fraction of the run (the span of
	// the timestamps), a death must be to count as a force-finalization at the end. 0 means
	// DefaultNearEndFraction; a negative value turns the rule off (only empty or flagged deaths
	// are then alive at the end). It must not exceed 1.
	NearEndFraction float64
}

// FiLiPReport tells what ReadFiLiP found and decided.
type FiLiPReport struct {
	// Layout is one of the FiLiPLayout* names.
	Layout string
	// Clock is the clock of the timestamps, detected or forced (never ClockAuto).
	Clock Clock
	// ClockReason says why: the evidence for a detected clock, or that it was forced.
	ClockReason string
	// Rows is the number of records imported; SkippedRows the number of bad rows skipped
	// (FiLiPOptions.SkipBadRows).
	Rows, SkippedRows int
	// FirstSkipped holds the messages of the first 10 skipped rows.
	FirstSkipped []string
	// Warnings lists what the reader assumed or found doubtful (missing metadata, a sampling
	// rate that is not 1/integer, metadata contradicting the timestamps, ...).
	Warnings []string
}

// FiLiPRowError describes a malformed CSV row. It wraps ErrBadRow.
type FiLiPRowError struct {
	// File is the CSV's name, Line the 1-based line number (the header is line 1).
	File string
	Line int
	// Field is the column's name as the layout spells it; empty when the row as a whole is
	// wrong (its number of fields).
	Field string
	// Value is the field's text (shortened when long).
	Value string
	// Problem says what is wrong ("is negative").
	Problem string
}

// Error formats the problem as `lifetimes: data.csv:17: field sizeInBytes: "-4" is negative`.
func (e *FiLiPRowError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("lifetimes: %s:%d: %s", e.File, e.Line, e.Problem)
	}
	return fmt.Sprintf("lifetimes: %s:%d: field %s: %q %s", e.File, e.Line, e.Field, e.Value, e.Problem)
}

// Unwrap returns ErrBadRow.
func (e *FiLiPRowError) Unwrap() error { return ErrBadRow }

// ReadFiLiP reads a FiLiP / Illimani object-lifetime export: the CSV of sampled allocation
// records at csvPath and its JSON run metadata (see FiLiPOptions.JSONPath). It returns the
// Profile on the bytes clock, every record weighing round(1/sampling rate), and a report of what
// it detected and assumed.
//
// Layouts. The header names the layout (its names may be quoted, the rows never are):
//
//	FiLiPLayoutCurrent:            finalizationTimeInMicroSeconds, sizeInBytes,
//	                               initializationTimeInMicroSeconds, allocatedObjectClass,
//	                               survivedScavenges, survivedFullGCs,
//	                               textualAllocatorMethod, textualAllocatorMethodOffset
//	FiLiPLayoutAllocatorMethod:    the same 6 first columns, allocatorMethod, allocatorMethodByte
//	FiLiPLayoutForcedFinalization: the same 6 first columns, forcedFinalization (true/false)
//
// Fields are never escaped, so a selector holding a comma (the binary selector #, for one)
// splits column 7: columns 1-6 are taken from the left, column 8 from the right, and everything
// in between is column 7. The survived-GC counts are checked (integers or empty) but not kept;
// the allocation site (columns 7 and 8) is neither. An empty field is nil: an empty
// finalization time means never finalized (alive at the end), an empty count unknown, an empty
// forcedFinalization false, an empty class "(unknown)". Lines end in LF or CRLF; empty lines are
// skipped. Timestamps are integers or decimals (rounded to whole bytes on the bytes clock).
//
// Clocks. Since Illimani v1.2 the timestamps count bytes allocated (VM parameter 34) although
// the header still says microseconds; before, they were microseconds. FiLiPOptions.Clock
// forces one; otherwise the clock is detected, in this order: (1) a timestamp of 10^15 or more
// is microseconds (Pharo's UTC microsecond clock reads about 3.9 × 10^15, while 10^15 bytes
// would be a petabyte allocated); (2) an Illimani version in the metadata's profiler string
// decides, v1.2 and later bytes, earlier microseconds (a warning is added if rule 3 disagrees);
// (3) the span of the timestamps is compared with what each clock predicts: about the bytes the
// records stand for (Σ size × weight) on the bytes clock, about totalExecutionTime on the
// microsecond clock; the prediction closer by ratio wins. Without totalExecutionTime, a span
// under a tenth of the sampled bytes is microseconds (an allocation rate over 10 bytes/µs, which
// any workload worth tuning exceeds), anything else bytes; (4) with a single instant, bytes.
// FiLiPReport.ClockReason gives the numbers behind the decision.
//
// The bytes clock is used as it is, shifted so the run starts at 0: the origin is the earliest
// birth minus the weighted size (size × weight) of the earliest-born record, or 0 if that is
// negative. Illimani reads parameter 34 after the allocation, so the first sampled object sits
// at its own weighted size, where the microsecond conversion puts it too; timestamps already
// counted from the start of the run are left almost alone, an absolute reading (bytes since the
// VM started) loses its offset. Meta.EndBytes is the latest timestamp, shifted: the clock counted
// every byte, Σ size × weight is only a sampled estimate (a warning is added when that estimate
// exceeds the clock by half). Meta.TotalAllocatedBytes = EndBytes.
//
// A microsecond clock is converted through the sampled allocation curve: with the births sorted
// by time, the bytes clock at a birth instant is the cumulative Σ size × weight of the records
// born at or before it (records born in the same microsecond share it). Deaths interpolate
// linearly between the birth instants around them; deaths after the last birth map to the end.
// Meta.EndBytes = Meta.TotalAllocatedBytes = Σ size × weight.
//
// Alive at the end. When a run ends the profiler force-finalizes the objects still alive, so they
// appear with a death at (or within a few instants of) the last timestamp. A record is alive at
// the end, with FlagAliveAtEnd and Death = Meta.EndBytes, when its finalization time is empty, or
// its forcedFinalization column says true, or, in the layouts without that column, its death
// lies within NearEndFraction of the run (the span of all timestamps) of the latest death.
//
// Metadata. The JSON gives totalExecutionTime (µs, Meta.RunSeconds), totalScavenges and
// totalFullGCs (Meta.Reported*), profiler (Meta.Profiler; "FiLiP" when absent) and the sampling
// rate, samplingRate or, in early versions, sampligRate: values above 1 are percentages (1 is
// every allocation, 10 is 10 %), values in (0, 1] fractions. Other keys (averageLifetimes) are
// ignored.
//
// Errors. A malformed row (wrong number of fields, a field that is not a number, negative, not
// finite, zero or too large a size, a death before the birth) fails the import with a
// *FiLiPRowError wrapping ErrBadRow that names the file, line and field, unless
// FiLiPOptions.SkipBadRows is set. An empty file, a missing or unknown header, malformed
// metadata or a file with no valid rows fail with an error naming the file.
//
// Speed. Rows are parsed without allocating, a regular file in parallel chunks (one worker per
// CPU, up to 8, chunks of 1 MiB at least), and put in birth order by a radix sort; the result is
// the same as a sequential read, line numbers in messages included.
func ReadFiLiP(csvPath string, opts FiLiPOptions) (*Profile, *FiLiPReport, error) {
	f, err := os.Open(csvPath)
	if err != nil {
		return nil, nil, fmt.Errorf("lifetimes: %w", err)
	}
	defer f.Close()
	var sizeHint int64 = -1
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		sizeHint = st.Size()
	}
	jsonPath, explicit := opts.JSONPath, opts.JSONPath != ""
	if !explicit {
		jsonPath = defaultFiLiPJSONPath(csvPath)
	}
	var meta io.Reader
	jf, err := os.Open(jsonPath)
	switch {
	case err == nil:
		defer jf.Close()
		meta = jf
	case explicit || !errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("lifetimes: metadata: %w", err)
	}
	src := filipSource{seq: f, size: sizeHint}
	if sizeHint >= 0 {
		src.at = f
	}
	return readFiLiP(src, csvPath, meta, jsonPath, opts, filipTuning{})
}

// ReadFiLiPFrom is ReadFiLiP on readers: csvName names the CSV in messages and in Meta.Source;
// meta is the JSON metadata, nil when there is none (sampling rate 1 is then assumed, with a
// warning in the report). The CSV is read sequentially.
func ReadFiLiPFrom(csv io.Reader, csvName string, meta io.Reader, opts FiLiPOptions) (*Profile, *FiLiPReport, error) {
	jsonName := opts.JSONPath
	if jsonName == "" {
		jsonName = defaultFiLiPJSONPath(csvName)
	}
	var sizeHint int64 = -1
	if l, ok := csv.(interface{ Len() int }); ok {
		sizeHint = int64(l.Len())
	}
	return readFiLiP(filipSource{seq: csv, size: sizeHint}, csvName, meta, jsonName, opts, filipTuning{})
}

func defaultFiLiPJSONPath(csvPath string) string {
	return strings.TrimSuffix(csvPath, filepath.Ext(csvPath)) + ".json"
}

// filipMaxLineBytes bounds a CSV line: no real row comes near it, and a file without newlines
// fails with a clear message instead of exhausting memory.
const filipMaxLineBytes = 16 << 20

// filipMaxTimestamp bounds timestamps: 2^53 (9 PB allocated, or 285 years of microseconds) keeps
// every integer exact in a float64.
const filipMaxTimestamp = 1 << 53

// filipUnknownClass is the class name an empty allocatedObjectClass field is interned as.
const filipUnknownClass = "(unknown)"

// filipAbsoluteMicros is the timestamp from which only a microsecond clock is plausible: 10^15
// bytes is a petabyte allocated, while Pharo's UTC microsecond clock (counting from 1901) reads
// about 3.9 × 10^15 today.
const filipAbsoluteMicros = 1e15

// Column indices in a row (the 7-column layout has forcedFinalization at colSite).
const (
	colDeath = iota
	colSize
	colBirth
	colClass
	colScavenges
	colFullGCs
	colSite
	colSiteOffset
)

type filipLayout struct {
	name    string
	columns []string
	forced  bool // 7 columns, the last is forcedFinalization
}

func filipLayouts() []filipLayout {
	first := []string{"finalizationTimeInMicroSeconds", "sizeInBytes", "initializationTimeInMicroSeconds",
		"allocatedObjectClass", "survivedScavenges", "survivedFullGCs"}
	return []filipLayout{
		{name: FiLiPLayoutCurrent, columns: append(slices.Clone(first), "textualAllocatorMethod", "textualAllocatorMethodOffset")},
		{name: FiLiPLayoutAllocatorMethod, columns: append(slices.Clone(first), "allocatorMethod", "allocatorMethodByte")},
		{name: FiLiPLayoutForcedFinalization, columns: append(slices.Clone(first), "forcedFinalization"), forced: true},
	}
}

// filipReader holds the state of one import. Rows are parsed into raw columns first (timestamps
// as read, in file order); finish then picks the clock, converts and sorts.
type filipReader struct {
	name     string
	jsonName string
	opts     FiLiPOptions
	report   *FiLiPReport
	layout   filipLayout
	line     int  // lines read so far (in a worker: of its chunk)
	slowRows bool // parse every row with row, not rowFast (tests compare the two)

	// The class table: names in order of first appearance (an empty name as "(unknown)"), the
	// map from the name as written to its index, and a small cache in front of the map.
	names      []string
	classes    map[string]classCacheEntry
	classCache [64]classCacheEntry

	firstSkipped []*FiLiPRowError // the first 10 skipped rows; formatted into the report last

	class  []uint32
	size   []uint32
	birth  []float64
	death  []float64 // -1: empty (never finalized)
	forced []bool
}

// filipSource is the CSV: a reader positioned at its start and, when it is a regular file, random
// access to it and its size (-1 if unknown), so that a big file can be parsed in parallel.
type filipSource struct {
	seq  io.Reader
	at   io.ReaderAt // nil: sequential only
	size int64
}

// filipTuning holds the knobs tests turn; the zero value is the production setting.
type filipTuning struct {
	slowRows   bool  // parse every row with the checking parser (row), not rowFast
	chunkBytes int64 // bytes per parallel chunk at least; 0: filipChunkBytes
	workers    int   // parallel workers at most; 0: GOMAXPROCS, at most filipMaxWorkers
}

// Parallel parsing: a CSV with random access is cut into chunks at line boundaries, at least
// filipChunkBytes each, parsed by up to filipMaxWorkers goroutines.
const (
	filipChunkBytes = 1 << 20
	filipMaxWorkers = 8
)

// readFiLiP is the import behind ReadFiLiP and ReadFiLiPFrom.
func readFiLiP(src filipSource, name string, meta io.Reader, jsonName string, opts FiLiPOptions, tune filipTuning) (*Profile, *FiLiPReport, error) {
	if opts.Clock < ClockAuto || opts.Clock > ClockMicros {
		return nil, nil, fmt.Errorf("lifetimes: FiLiPOptions.Clock %d is not ClockAuto, ClockBytes or ClockMicros", int(opts.Clock))
	}
	if math.IsNaN(opts.NearEndFraction) || opts.NearEndFraction > 1 {
		return nil, nil, fmt.Errorf("lifetimes: FiLiPOptions.NearEndFraction %v is not ≤ 1", opts.NearEndFraction)
	}
	if opts.NearEndFraction == 0 {
		opts.NearEndFraction = DefaultNearEndFraction
	}
	r := newFiLiPReader(name, opts, tune.slowRows)
	r.jsonName = jsonName
	md, err := r.readMeta(meta)
	if err != nil {
		return nil, nil, err
	}
	parallel := false
	if src.at != nil && src.size > 0 {
		if parallel, err = r.readParallel(src.at, src.size, tune); err != nil {
			return nil, nil, err
		}
	}
	if !parallel {
		if err := r.readCSV(src.seq, src.size); err != nil {
			return nil, nil, err
		}
	}
	p, err := r.finish(md)
	if err != nil {
		return nil, nil, err
	}
	return p, r.report, nil
}

func newFiLiPReader(name string, opts FiLiPOptions, slowRows bool) *filipReader {
	return &filipReader{name: name, opts: opts, report: &FiLiPReport{}, slowRows: slowRows,
		classes: make(map[string]classCacheEntry)}
}

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
			return false, fmt.Errorf("lifetimes: %s: %w", r.name, err)
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
			return true, fmt.Errorf("lifetimes: %s: %w", r.name, err)
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
	errs := make([]error, len(ws))
	var wg sync.WaitGroup
	for i := range ws {
		w := newFiLiPReader(r.name, r.opts, r.slowRows)
		w.layout = r.layout
		ws[i] = w
		from, to := bounds[i], bounds[i+1]
		wg.Go(func() { errs[i] = w.readCSV(io.NewSectionReader(at, from, to-from), to-from) })
	}
	wg.Wait()

	// Merge in file order.
	lineBase := r.line
	for i, w := range ws {
		if err := errs[i]; err != nil {
			var rowErr *FiLiPRowError
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
	for _, w := range ws {
		global := make([]uint32, len(w.names))
		for li, name := range w.names {
			gi, ok := globalIndex[name]
			if !ok {
				gi = uint32(len(r.names))
				r.names = append(r.names, name)
				globalIndex[name] = gi
			}
			global[li] = gi
		}
		for li, c := range w.class {
			w.class[li] = global[c]
		}
		if len(ws) == 1 {
			r.class, r.size, r.birth, r.death, r.forced = w.class, w.size, w.birth, w.death, w.forced
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

func (r *filipReader) warnf(format string, args ...any) {
	r.report.Warnings = append(r.report.Warnings, fmt.Sprintf(format, args...))
}

// readCSV splits the input into lines and parses them. It reads big chunks and cuts lines with
// bytes.IndexByte, so no line is copied unless it straddles two chunks.
func (r *filipReader) readCSV(in io.Reader, sizeHint int64) error {
	bufSize := 1 << 20
	if sizeHint >= 0 {
		bufSize = int(min(max(sizeHint+1, 4096), 1<<20))
	}
	buf := make([]byte, bufSize)
	start, end := 0, 0
	eof, presized := false, false
	for {
		for {
			i := bytes.IndexByte(buf[start:end], '\n')
			if i < 0 {
				break
			}
			if err := r.handleLine(buf[start : start+i]); err != nil {
				return err
			}
			start += i + 1
		}
		if eof {
			if start < end {
				if err := r.handleLine(buf[start:end]); err != nil {
					return err
				}
			}
			break
		}
		// Keep the incomplete last line, make room, read more.
		end = copy(buf, buf[start:end])
		start = 0
		if end == len(buf) {
			if len(buf) >= filipMaxLineBytes {
				return &FiLiPRowError{File: r.name, Line: r.line + 1, Problem: fmt.Sprintf("line longer than %d bytes", filipMaxLineBytes)}
			}
			buf = slices.Grow(buf, len(buf))[:2*len(buf)]
		}
		n, err := in.Read(buf[end:])
		end += n
		if !presized && sizeHint > 0 {
			presized = r.presize(buf[:end], sizeHint)
		}
		switch {
		case err == io.EOF:
			eof = true
		case err != nil:
			return fmt.Errorf("lifetimes: %s: %w", r.name, err)
		}
	}
	if r.layout.name == "" {
		return fmt.Errorf("lifetimes: %s: empty file: no header", r.name)
	}
	return nil
}

// presize reserves room in the raw columns for the rows a CSV of sizeBytes bytes holds,
// estimated from the mean line length of a chunk of it. It reports false when the chunk holds
// too few lines to tell.
func (r *filipReader) presize(chunk []byte, sizeBytes int64) bool {
	lines := bytes.Count(chunk, []byte("\n"))
	if lines < 2 {
		return false
	}
	n := int(min(float64(sizeBytes)/float64(len(chunk))*float64(lines)*1.05+16, 1<<28)) - len(r.birth)
	if n > 0 {
		r.class = slices.Grow(r.class, n)
		r.size = slices.Grow(r.size, n)
		r.birth = slices.Grow(r.birth, n)
		r.death = slices.Grow(r.death, n)
		r.forced = slices.Grow(r.forced, n)
	}
	return true
}

func (r *filipReader) handleLine(line []byte) error {
	r.line++
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) == 0 {
		return nil
	}
	if r.layout.name == "" {
		return r.header(line)
	}
	if !r.slowRows && r.rowFast(line) {
		return nil
	}
	err := r.row(line)
	if err == nil {
		return nil
	}
	if !r.opts.SkipBadRows {
		return err
	}
	r.report.SkippedRows++
	if len(r.firstSkipped) < 10 {
		r.firstSkipped = append(r.firstSkipped, err)
	}
	return nil
}

// header detects the layout from the header line.
func (r *filipReader) header(line []byte) error {
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	var names []string
	for f := range bytes.SplitSeq(line, []byte(",")) {
		f = bytes.TrimSpace(f)
		if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
			f = f[1 : len(f)-1]
		}
		names = append(names, string(bytes.TrimSpace(f)))
	}
	for _, l := range filipLayouts() {
		if slices.EqualFunc(names, l.columns, strings.EqualFold) {
			r.layout = l
			r.report.Layout = l.name
			return nil
		}
	}
	if _, e := parseTimestamp(bytes.TrimSpace(bytes.SplitN(line, []byte(","), 2)[0])); e == numOK || e == numEmpty || e == numNegative {
		return fmt.Errorf("lifetimes: %s:%d: no header: the first line is a data row (want a header starting with %q)",
			r.name, r.line, "finalizationTimeInMicroSeconds")
	}
	var want []string
	for _, l := range filipLayouts() {
		want = append(want, strings.Join(l.columns, ","))
	}
	return fmt.Errorf("lifetimes: %s:%d: unknown header %q: want one of the FiLiP layouts %q",
		r.name, r.line, shorten(line, 300), want)
}

func shorten(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

func (r *filipReader) fieldErr(col int, value []byte, problem string) *FiLiPRowError {
	return &FiLiPRowError{File: r.name, Line: r.line, Field: r.layout.columns[col], Value: shorten(value, 60), Problem: problem}
}

func (r *filipReader) numErr(col int, value []byte, e numErr) *FiLiPRowError {
	return r.fieldErr(col, value, e.String())
}

// rowFast parses the common row in one pass, fusing the search for commas with the parsing of
// the numbers: plain digits (timestamps with an optional fraction), no spaces, no signs, every
// value in range. It returns false, having appended nothing, on anything else; row then parses
// the line again and says precisely what is wrong, if anything. Both must accept the same rows
// with the same values (FuzzReadFiLiP checks).
func (r *filipReader) rowFast(line []byte) bool {
	death, pos, ok := scanTimestamp(line, 0)
	if !ok {
		return false
	}
	size, pos, ok := scanCount(line, pos)
	if !ok || size == 0 || size > math.MaxUint32 || size == emptyCount {
		return false
	}
	birth, pos, ok := scanTimestamp(line, pos)
	if !ok || birth < 0 || death >= 0 && death < birth {
		return false
	}
	classStart := pos
	for pos < len(line) && line[pos] != ',' {
		pos++
	}
	if pos >= len(line) {
		return false
	}
	cls := line[classStart:pos]
	pos++
	for range 2 { // survivedScavenges, survivedFullGCs
		if _, pos, ok = scanCount(line, pos); !ok {
			return false
		}
	}
	rest := line[pos:]
	forced := false
	if r.layout.forced {
		switch string(rest) { // no allocation: the conversion is only compared
		case "", "false":
		case "true":
			forced = true
		default:
			return false
		}
	} else if bytes.LastIndexByte(rest, ',') < 0 {
		return false
	}
	r.appendRow(cls, uint32(size), birth, death, forced)
	return true
}

// emptyCount is what scanCount returns for an empty field.
const emptyCount = math.MaxUint64

// scanTimestamp parses the field at line[pos:] up to the next comma as a plain decimal of up to
// 18 digits with an optional fraction, at most 2^53; an empty field gives -1. It returns the
// position after the comma; ok is false when the field is anything else or no comma follows.
func scanTimestamp(line []byte, pos int) (v float64, next int, ok bool) {
	var mant uint64
	digits, frac := 0, 0
	dot := false
	start := pos
	for ; pos < len(line); pos++ {
		c := line[pos]
		switch {
		case c-'0' < 10:
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
			continue
		case c == '.' && !dot:
			dot = true
			continue
		case c == ',':
		default:
			return 0, 0, false
		}
		break
	}
	switch {
	case pos >= len(line) || digits > 18:
		return 0, 0, false
	case pos == start:
		return -1, pos + 1, true
	case digits == 0 || mant > filipMaxTimestamp:
		return 0, 0, false
	}
	v = float64(mant)
	if frac > 0 {
		v /= pow10(frac)
	}
	return v, pos + 1, true
}

// scanCount parses the field at line[pos:] up to the next comma as up to 18 plain digits; an
// empty field gives emptyCount. It returns the position after the comma; ok is false when the
// field is anything else or no comma follows.
func scanCount(line []byte, pos int) (n uint64, next int, ok bool) {
	start := pos
	for ; pos < len(line); pos++ {
		c := line[pos]
		if c-'0' < 10 {
			n = n*10 + uint64(c-'0')
			continue
		}
		if c != ',' {
			return 0, 0, false
		}
		break
	}
	switch {
	case pos >= len(line) || pos-start > 18:
		return 0, 0, false
	case pos == start:
		return emptyCount, pos + 1, true
	}
	return n, pos + 1, true
}

// appendRow interns the class and appends a parsed row to the raw columns.
func (r *filipReader) appendRow(cls []byte, size uint32, birth, death float64, forced bool) {
	r.class = append(r.class, r.intern(cls))
	r.size = append(r.size, size)
	r.birth = append(r.birth, birth)
	r.death = append(r.death, death)
	r.forced = append(r.forced, forced)
}

// intern returns the class index of a class name. A small direct-mapped cache, hashed on the
// name's length and its first and last bytes, answers most rows (a program has few hot classes)
// without hashing the whole name; misses go to the map. Neither lookup allocates.
func (r *filipReader) intern(cls []byte) uint32 {
	h := len(cls)
	if h > 0 {
		h = h*31 + int(cls[0])*7 + int(cls[h-1])
	}
	e := &r.classCache[h&(len(r.classCache)-1)]
	if e.ok && e.name == string(cls) {
		return e.index
	}
	c, ok := r.classes[string(cls)]
	if !ok {
		c.name = string(cls)
		c.index = uint32(len(r.names))
		if len(c.name) == 0 {
			r.names = append(r.names, filipUnknownClass)
		} else {
			r.names = append(r.names, c.name)
		}
		r.classes[c.name] = c
	}
	*e = c
	e.ok = true
	return c.index
}

// classCacheEntry maps a class name as written in the CSV to its class index.
type classCacheEntry struct {
	name  string
	index uint32
	ok    bool // the cache slot is filled
}

// row parses one data row and appends it to the raw columns, or says what is wrong with it.
func (r *filipReader) row(line []byte) *FiLiPRowError {
	var f [8][]byte
	want := len(r.layout.columns)
	rest := line
	for k := 0; k < 6; k++ {
		i := bytes.IndexByte(rest, ',')
		if i < 0 {
			return &FiLiPRowError{File: r.name, Line: r.line, Problem: fmt.Sprintf("row has %d fields, want %d", k+1, want)}
		}
		f[k], rest = rest[:i], rest[i+1:]
	}
	if r.layout.forced {
		if c := bytes.Count(rest, []byte(",")); c > 0 {
			return &FiLiPRowError{File: r.name, Line: r.line, Problem: fmt.Sprintf("row has %d fields, want %d", 7+c, want)}
		}
		f[colSite] = rest
	} else {
		j := bytes.LastIndexByte(rest, ',')
		if j < 0 {
			return &FiLiPRowError{File: r.name, Line: r.line, Problem: fmt.Sprintf("row has 7 fields, want %d", want)}
		}
		f[colSite], f[colSiteOffset] = rest[:j], rest[j+1:]
	}

	death, e := parseTimestamp(f[colDeath])
	switch e {
	case numOK:
	case numEmpty:
		death = -1
	default:
		return r.numErr(colDeath, f[colDeath], e)
	}
	size, e := parseCount(f[colSize])
	switch {
	case e != numOK:
		return r.numErr(colSize, f[colSize], e)
	case size == 0:
		return r.fieldErr(colSize, f[colSize], "is zero")
	case size > math.MaxUint32:
		return r.fieldErr(colSize, f[colSize], "is too large (over 4 GiB)")
	}
	birth, e := parseTimestamp(f[colBirth])
	if e != numOK {
		return r.numErr(colBirth, f[colBirth], e)
	}
	if death >= 0 && death < birth {
		return r.fieldErr(colDeath, f[colDeath], fmt.Sprintf("is before %s %q", r.layout.columns[colBirth], f[colBirth]))
	}
	for _, c := range [...]int{colScavenges, colFullGCs} {
		if _, e := parseCount(f[c]); e != numOK && e != numEmpty {
			return r.numErr(c, f[c], e)
		}
	}
	forced := false
	if r.layout.forced {
		switch v := bytes.TrimSpace(f[colSite]); {
		case len(v) == 0 || bytes.EqualFold(v, []byte("false")):
		case bytes.EqualFold(v, []byte("true")):
			forced = true
		default:
			return r.fieldErr(colSite, f[colSite], "is not true or false")
		}
	}

	r.appendRow(f[colClass], uint32(size), birth, death, forced)
	return nil
}

type numErr uint8

const (
	numOK numErr = iota
	numEmpty
	numNegative
	numNotNumber
	numNotFinite
	numNotInteger
	numTooLarge
)

func (e numErr) String() string {
	switch e {
	case numEmpty:
		return "is empty"
	case numNegative:
		return "is negative"
	case numNotNumber:
		return "is not a number"
	case numNotFinite:
		return "is not finite"
	case numNotInteger:
		return "is not an integer"
	case numTooLarge:
		return "is too large"
	}
	return "is fine"
}

// parseTimestamp parses a non-negative decimal (integer or with a fraction) up to 2^53 without
// allocating. Plain digits with an optional fraction take the fast path; anything else (an
// exponent, a sign, surrounding spaces) goes through strconv.
func parseTimestamp(b []byte) (float64, numErr) {
	v, e := parseDecimal(b)
	if e == numOK && v > filipMaxTimestamp {
		return v, numTooLarge
	}
	return v, e
}

func parseDecimal(b []byte) (float64, numErr) {
	if len(b) == 0 {
		return 0, numEmpty
	}
	var mant uint64
	digits, frac := 0, 0
	dot := false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			if digits == 18 {
				return parseDecimalSlow(b)
			}
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return parseDecimalSlow(b)
		}
	}
	if digits == 0 || mant > 1<<53 {
		return parseDecimalSlow(b)
	}
	v := float64(mant) // exact: mant ≤ 2^53
	if frac > 0 {
		// One correctly rounded division by an exact power of ten (≤ 10^18 < 2^63, exact in a
		// float64 up to 10^22) gives the correctly rounded result (Clinger's fast path).
		v /= pow10(frac)
	}
	return v, numOK
}

func pow10(n int) float64 {
	p := 1.0
	for range n {
		p *= 10
	}
	return p
}

func parseDecimalSlow(b []byte) (float64, numErr) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return 0, numEmpty
	}
	v, err := strconv.ParseFloat(string(t), 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		if v < 0 {
			return v, numNegative
		}
		return v, numTooLarge
	case err != nil:
		return 0, numNotNumber
	case math.IsNaN(v) || math.IsInf(v, 0):
		return v, numNotFinite
	case v < 0:
		return v, numNegative
	}
	return v, numOK
}

// parseCount parses a non-negative integer (an integral decimal such as "24.0" is accepted).
func parseCount(b []byte) (uint64, numErr) {
	if len(b) == 0 {
		return 0, numEmpty
	}
	if len(b) <= 18 {
		var n uint64
		ok := true
		for _, c := range b {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			n = n*10 + uint64(c-'0')
		}
		if ok {
			return n, numOK
		}
	}
	v, e := parseDecimal(b)
	switch {
	case e != numOK:
		return 0, e
	case v != math.Trunc(v):
		return 0, numNotInteger
	case v >= 1<<63:
		return 0, numTooLarge
	}
	return uint64(v), numOK
}

// filipMeta is the JSON metadata file. Numbers are float64 because Pharo may write 12 or 12.0.
type filipMeta struct {
	TotalExecutionTime *float64        `json:"totalExecutionTime"` // µs
	TotalFullGCs       *float64        `json:"totalFullGCs"`
	TotalScavenges     *float64        `json:"totalScavenges"`
	SamplingRate       *float64        `json:"samplingRate"`
	SampligRate        *float64        `json:"sampligRate"` // early versions' spelling
	Profiler           json.RawMessage `json:"profiler"`
}

// filipRun is what finish needs from the metadata.
type filipRun struct {
	rate       float64 // sampling rate as a fraction in (0, 1]
	weight     uint32  // round(1/rate)
	runMicros  float64 // totalExecutionTime, 0 = unknown
	profiler   string
	scavenges  int
	fullGCs    int
	haveMeta   bool
	versionMaj int // Illimani version from the profiler string, -1 = unknown
	versionMin int
}

// readMeta decodes the JSON metadata. The sampling rate may be a fraction (0.01) or a percentage
// (1, 100): values above 1 are percentages, so 1 means every allocation.
func (r *filipReader) readMeta(in io.Reader) (filipRun, error) {
	run := filipRun{rate: 1, weight: 1, versionMaj: -1}
	if in == nil {
		r.warnf("no metadata (%s): sampling rate 1 assumed, run length and GC counts unknown", r.jsonName)
		return run, nil
	}
	data, err := io.ReadAll(io.LimitReader(in, 64<<20))
	if err != nil {
		return run, fmt.Errorf("lifetimes: %s: %w", r.jsonName, err)
	}
	var m filipMeta
	if err := json.Unmarshal(data, &m); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if typeErr.Field == "" {
				return run, fmt.Errorf("lifetimes: %s: invalid metadata JSON: a JSON %s, want an object: %w", r.jsonName, typeErr.Value, err)
			}
			return run, fmt.Errorf("lifetimes: %s: invalid metadata JSON: %s is a JSON %s, want a number: %w", r.jsonName, typeErr.Field, typeErr.Value, err)
		}
		return run, fmt.Errorf("lifetimes: %s: invalid metadata JSON: %w", r.jsonName, err)
	}
	run.haveMeta = true
	rate := m.SamplingRate
	if rate == nil {
		rate = m.SampligRate
	}
	switch {
	case rate == nil:
		r.warnf("%s has no samplingRate: 1 assumed (every allocation recorded)", r.jsonName)
	case *rate <= 0 || *rate > 100:
		return run, fmt.Errorf("lifetimes: %s: sampling rate %v is not a fraction in (0, 1] nor a percentage in (1, 100]", r.jsonName, *rate)
	default:
		run.rate = *rate
		if run.rate > 1 {
			run.rate /= 100
		}
		w := math.Round(1 / run.rate)
		if w > math.MaxUint32 {
			return run, fmt.Errorf("lifetimes: %s: sampling rate %v is too small (a record would stand for more than 2^32 objects)", r.jsonName, *rate)
		}
		run.weight = uint32(w)
		if math.Abs(1/run.rate-w) > 0.01*w {
			r.warnf("sampling rate %v is not 1/integer: records weigh %d", *rate, run.weight)
		}
	}
	if t := m.TotalExecutionTime; t != nil {
		if *t > 0 {
			run.runMicros = *t
		} else {
			r.warnf("%s: totalExecutionTime %v ignored: not positive", r.jsonName, *t)
		}
	}
	count := func(name string, v *float64) int {
		if v == nil {
			return 0
		}
		if *v < 0 || *v > math.MaxInt32 || *v != math.Trunc(*v) {
			r.warnf("%s: %s %v ignored: not a count", r.jsonName, name, *v)
			return 0
		}
		return int(*v)
	}
	run.scavenges = count("totalScavenges", m.TotalScavenges)
	run.fullGCs = count("totalFullGCs", m.TotalFullGCs)
	if len(m.Profiler) > 0 && string(m.Profiler) != "null" {
		var s string
		if json.Unmarshal(m.Profiler, &s) != nil {
			s = string(m.Profiler)
		}
		run.profiler = s
		run.versionMaj, run.versionMin = illimaniVersion(s)
	}
	return run, nil
}

// illimaniVersion extracts major.minor from a profiler string such as "Illimani v1.2.0" or
// "1.3". It returns -1, -1 when the string names another profiler (FiLiP's versions do not
// tell its clock) or holds no version.
func illimaniVersion(s string) (major, minor int) {
	low := strings.ToLower(s)
	i := strings.IndexFunc(low, func(c rune) bool { return c >= '0' && c <= '9' })
	if i < 0 {
		return -1, -1
	}
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(low[:i]), "v"))
	if name != "" && !strings.Contains(name, "illimani") {
		return -1, -1
	}
	rest := low[i:]
	num := func() (int, bool) {
		j := 0
		for j < len(rest) && j < 6 && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(rest[:j])
		rest = rest[j:]
		return n, err == nil
	}
	major, ok := num()
	if !ok || len(rest) < 2 || rest[0] != '.' {
		return -1, -1
	}
	rest = rest[1:]
	minor, ok = num()
	if !ok {
		return -1, -1
	}
	return major, minor
}

// filipStats summarises the raw timestamps.
type filipStats struct {
	minBirth, maxTime float64 // over births and non-empty deaths
	maxDeath          float64 // latest non-empty death; -1 if none
	sampledBytes      uint64  // Σ size × weight
	sampledOK         bool    // false if the sum overflowed
}

func (r *filipReader) stats(weight uint32) filipStats {
	s := filipStats{minBirth: math.Inf(1), maxTime: 0, maxDeath: -1, sampledOK: true}
	var sum, carry uint64
	for i, b := range r.birth {
		s.minBirth = min(s.minBirth, b)
		s.maxTime = max(s.maxTime, b)
		if d := r.death[i]; d >= 0 {
			s.maxTime = max(s.maxTime, d)
			s.maxDeath = max(s.maxDeath, d)
		}
		hi, lo := bits.Mul64(uint64(r.size[i]), uint64(weight))
		sum, carry = bits.Add64(sum, lo, 0)
		if hi != 0 || carry != 0 {
			s.sampledOK = false
		}
	}
	s.sampledBytes = sum
	return s
}

// detectClock applies the detection rules (1) to (4) ReadFiLiP documents. It returns the clock,
// the reason, and a warning when rule 2 (the profiler version) decides against the evidence of
// rule 3 (the span of the timestamps).
func detectClock(st filipStats, run filipRun) (Clock, string, string) {
	if st.maxTime >= filipAbsoluteMicros {
		return ClockMicros, fmt.Sprintf("timestamps reach %.4g, beyond any byte count (10^15 = 1 PB): an absolute microsecond clock", st.maxTime), ""
	}
	spanClock, spanReason := detectClockFromSpan(st, run)
	if run.versionMaj >= 0 {
		c := ClockMicros
		if run.versionMaj > 1 || run.versionMaj == 1 && run.versionMin >= 2 {
			c = ClockBytes
		}
		reason := fmt.Sprintf("profiler %q: Illimani v1.2 and later stamp bytes allocated, earlier versions microseconds", run.profiler)
		warning := ""
		if spanClock != ClockAuto && spanClock != c {
			warning = fmt.Sprintf("the profiler version says the clock is %s but the timestamps look like %s (%s); force the clock if the version is wrong", c, spanClock, spanReason)
		}
		return c, reason, warning
	}
	if spanClock == ClockAuto {
		return ClockBytes, spanReason + ": bytes (the current Illimani format) assumed", ""
	}
	return spanClock, spanReason, ""
}

// detectClockFromSpan is rule 3 of detectClock. On the bytes clock the span is about the bytes
// the records stand for (usually somewhat more: the clock also counts unprofiled allocations),
// on the microsecond clock about totalExecutionTime; the prediction closer by ratio
// (|log(span / prediction)|) wins. It returns ClockAuto when there is no span (rule 4).
func detectClockFromSpan(st filipStats, run filipRun) (Clock, string) {
	span := st.maxTime - st.minBirth
	if span <= 0 {
		return ClockAuto, "all timestamps are equal, no evidence of the clock"
	}
	sampled := float64(st.sampledBytes)
	if !st.sampledOK {
		sampled = math.Inf(1)
	}
	toBytes := span / sampled
	if run.runMicros > 0 {
		toMicros := span / run.runMicros
		why := fmt.Sprintf("timestamp span %.4g is %.3g × the sampled bytes (%.4g) and %.3g × totalExecutionTime (%.4g µs)",
			span, toBytes, sampled, toMicros, run.runMicros)
		if math.Abs(math.Log(toBytes)) <= math.Abs(math.Log(toMicros)) {
			return ClockBytes, why + ": closer to bytes"
		}
		return ClockMicros, why + ": closer to microseconds"
	}
	why := fmt.Sprintf("timestamp span %.4g is %.3g × the sampled bytes (%.4g), no totalExecutionTime", span, toBytes, sampled)
	if toBytes < 0.1 {
		return ClockMicros, why + ": under 0.1 ×, microseconds"
	}
	return ClockBytes, why + ": at least 0.1 ×, bytes"
}

// finish picks the clock, converts the timestamps to the bytes clock, marks the records alive at
// the end, and builds the Profile with the records in birth order.
func (r *filipReader) finish(run filipRun) (*Profile, error) {
	for _, e := range r.firstSkipped {
		r.report.FirstSkipped = append(r.report.FirstSkipped, e.Error())
	}
	n := len(r.birth)
	if n == 0 {
		if r.report.SkippedRows > 0 {
			return nil, fmt.Errorf("lifetimes: %s: no valid rows (%d bad rows skipped, the first: %s)", r.name, r.report.SkippedRows, r.report.FirstSkipped[0])
		}
		return nil, fmt.Errorf("lifetimes: %s: no rows after the header", r.name)
	}
	if n > math.MaxUint32 {
		return nil, fmt.Errorf("lifetimes: %s: %d rows, more than 2^32", r.name, n)
	}
	st := r.stats(run.weight)

	autoClock, autoReason, warning := detectClock(st, run)
	clock, reason := autoClock, autoReason
	if r.opts.Clock != ClockAuto {
		clock, reason = r.opts.Clock, "forced by option"
		if autoClock != clock {
			r.warnf("clock forced to %s; detection would have chosen %s (%s)", clock, autoClock, autoReason)
		}
	} else if warning != "" {
		r.warnf("%s", warning)
	}
	r.report.Clock, r.report.ClockReason = clock, reason

	// Alive at the end: empty or flagged deaths, or deaths near the latest one.
	nearEnd := math.Inf(1)
	if !r.layout.forced && r.opts.NearEndFraction >= 0 && st.maxDeath >= 0 {
		nearEnd = st.maxDeath - r.opts.NearEndFraction*(st.maxTime-st.minBirth)
	}
	alive := func(i int) bool { return r.death[i] < 0 || r.forced[i] || r.death[i] >= nearEnd }

	var conv filipConversion
	switch clock {
	case ClockMicros:
		if !st.sampledOK {
			return nil, fmt.Errorf("lifetimes: %s: the records stand for more than 2^64 bytes", r.name)
		}
		conv = r.microsClock(run.weight)
	default:
		conv = r.bytesClock(st, run.weight)
		if st.sampledOK && float64(st.sampledBytes) > 1.5*float64(conv.endBytes) && conv.endBytes > 0 {
			r.warnf("the records stand for %d bytes but the clock counted only %d: is the sampling rate (%v) right?", st.sampledBytes, conv.endBytes, run.rate)
		}
	}

	var b Builder
	b.Grow(n)
	// Intern the class table. The indices stay the same unless a class was written both as
	// "(unknown)" and as an empty field.
	remap := false
	global := make([]uint32, len(r.names))
	for i, name := range r.names {
		global[i] = b.Class(name)
		remap = remap || global[i] != uint32(i)
	}
	if remap {
		for i, c := range r.class {
			r.class[i] = global[c]
		}
	}
	for j := range n {
		i := j
		if conv.order != nil {
			i = int(conv.order[j])
		}
		birth := conv.birth(i)
		death, flags := conv.endBytes, FlagAliveAtEnd
		if !alive(i) {
			death, flags = conv.death(r.death[i]), 0
		}
		b.Add(r.class[i], r.size[i], birth, death, run.weight, flags)
	}
	r.report.Rows = n
	profiler := run.profiler
	if profiler == "" {
		profiler = "FiLiP"
	}
	total := conv.endBytes
	if clock == ClockMicros {
		total = st.sampledBytes
	}
	p, err := b.Build(Meta{
		Source:              r.name,
		Profiler:            profiler,
		EndBytes:            conv.endBytes,
		TotalAllocatedBytes: total,
		RunSeconds:          run.runMicros / 1e6,
		SamplingRate:        run.rate,
		ReportedScavenges:   run.scavenges,
		ReportedFullGCs:     run.fullGCs,
	})
	if err != nil {
		return nil, fmt.Errorf("lifetimes: %s: %w", r.name, err)
	}
	return p, nil
}

// filipConversion maps raw timestamps to the bytes clock. Records are added in order: order[j]
// is the file index of the j-th record by birth (nil: the file is already in birth order).
type filipConversion struct {
	order    []uint32
	endBytes uint64
	birth    func(i int) uint64 // birth of record i (file order); called in birth order
	death    func(raw float64) uint64
}

// bytesClock uses the timestamps as bytes, rounded to integers and shifted by an origin so the
// run starts at 0: origin = (earliest birth) − (weight × size of the earliest-born record),
// at least 0. Illimani reads parameter 34 after the allocation, so the earliest sampled object
// sits at its own weighted size, exactly where microsClock puts it; a clock already counted from
// the start of the run is left alone (its earliest birth is about that small), an absolute
// reading (bytes since the VM started) loses its offset. EndBytes is the latest timestamp: the
// clock counted every byte, the records' Σ size × weight is only a sampled estimate of it.
func (r *filipReader) bytesClock(st filipStats, weight uint32) filipConversion {
	n := len(r.birth)
	keys := make([]uint64, n)
	for i, b := range r.birth {
		keys[i] = uint64(math.Round(b))
	}
	order := sortOrder(keys)
	first := 0
	if order != nil {
		first = int(order[0])
	}
	minBirth := keys[first]
	origin := uint64(0)
	if w := uint64(r.size[first]) * uint64(weight); minBirth > w {
		origin = minBirth - w
	}
	end := uint64(math.Round(st.maxTime)) - origin
	return filipConversion{
		order:    order,
		endBytes: end,
		birth:    func(i int) uint64 { return keys[i] - origin },
		death:    func(raw float64) uint64 { return uint64(math.Round(raw)) - origin },
	}
}

// microsClock converts microseconds to bytes through the sampled allocation curve: with the
// births sorted by time, the bytes clock at time t is the cumulative Σ size × weight of the
// records born at or before t. Births map to the cumulative of their instant (records born in
// the same microsecond share it); deaths interpolate linearly between the two birth instants
// around them, and deaths after the last birth map to the end, EndBytes = Σ size × weight.
func (r *filipReader) microsClock(weight uint32) filipConversion {
	n := len(r.birth)
	keys := make([]uint64, n)
	for i, b := range r.birth {
		keys[i] = math.Float64bits(b) // non-negative floats sort as their bit patterns
	}
	order := sortOrder(keys)
	// Distinct birth instants and the cumulative weighted bytes at each (the caller checked
	// that the total fits in a uint64).
	var instants []float64
	var cum []uint64
	var total uint64
	for j := range n {
		i := j
		if order != nil {
			i = int(order[j])
		}
		t := r.birth[i]
		total += uint64(r.size[i]) * uint64(weight)
		if k := len(instants); k > 0 && instants[k-1] == t {
			cum[k-1] = total
		} else {
			instants = append(instants, t)
			cum = append(cum, total)
		}
	}
	group := 0
	return filipConversion{
		order:    order,
		endBytes: total,
		birth: func(i int) uint64 {
			// Called in birth order, so the instant only moves forward.
			for instants[group] != r.birth[i] {
				group++
			}
			return cum[group]
		},
		death: func(t float64) uint64 {
			if t > instants[len(instants)-1] {
				return total
			}
			k, found := slices.BinarySearch(instants, t)
			if found || k == 0 { // k == 0 cannot happen: no death precedes the first birth
				return cum[k]
			}
			lo, span := cum[k-1], cum[k]-cum[k-1]
			f := (t - instants[k-1]) / (instants[k] - instants[k-1])
			d := math.Round(f * float64(span))
			if d >= float64(span) { // also keeps the conversion below 2^64
				return cum[k]
			}
			return lo + min(uint64(d), span)
		},
	}
}

// sortOrder returns the indices of keys in ascending key order, equal keys in index order, or
// nil when keys are already in order. It is a stable LSD radix sort on key − min, 10 bits a
// pass, skipping the passes whose digit is the same for every key: births span far fewer than
// 64 bits, so a few linear passes replace an n log n comparison sort. When key and index fit in
// 64 bits together they are packed into one word (key above index), which halves the memory
// the passes move; the index bits need no pass, they start in order.
func sortOrder(keys []uint64) []uint32 {
	n := len(keys)
	sorted := true
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i, k := range keys {
		if i > 0 && k < keys[i-1] {
			sorted = false
		}
		lo, hi = min(lo, k), max(hi, k)
	}
	if sorted {
		return nil
	}
	keyBits := bits.Len64(hi - lo)
	idxBits := bits.Len64(uint64(n - 1))
	if keyBits+idxBits <= 64 {
		src := make([]uint64, n)
		for i, k := range keys {
			src[i] = (k-lo)<<idxBits | uint64(i)
		}
		src = radixSort(src, idxBits, idxBits+keyBits)
		order := make([]uint32, n)
		mask := uint64(1)<<idxBits - 1
		for i, v := range src {
			order[i] = uint32(v & mask)
		}
		return order
	}
	// Keys too wide to share a word with the index: sort (key, index) pairs.
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(a, b uint32) int {
		switch {
		case keys[a] < keys[b]:
			return -1
		case keys[a] > keys[b]:
			return 1
		}
		return 0
	})
	return order
}

// radixSort sorts v stably by bits [fromBit, toBit) with an LSD radix sort and returns the
// sorted slice (v or a buffer of the same length).
func radixSort(v []uint64, fromBit, toBit int) []uint64 {
	const digitBits = 10
	const radix = 1 << digitBits
	n := len(v)
	passes := (toBit - fromBit + digitBits - 1) / digitBits
	// One read of the data counts the digits of every pass.
	counts := make([][radix]int, passes)
	for _, x := range v {
		for p := range counts {
			counts[p][(x>>(fromBit+p*digitBits))&(radix-1)]++
		}
	}
	tmp := make([]uint64, n)
	for p := range counts {
		c := &counts[p]
		if slices.Contains(c[:], n) {
			continue // every value has the same digit here
		}
		pos := 0
		for d, k := range c {
			c[d] = pos
			pos += k
		}
		shift := fromBit + p*digitBits
		for _, x := range v {
			d := (x >> shift) & (radix - 1)
			tmp[c[d]] = x
			c[d]++
		}
		v, tmp = tmp, v
	}
	return v
}
