package filip

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/gctune/gctune/profile"
)

// ErrBadRow is wrapped by the error Read returns for a malformed CSV row (see RowError).
var ErrBadRow = errors.New("filip: bad FiLiP row")

// Clock is the clock a FiLiP / Illimani export stamps births and deaths with.
type Clock int

const (
	// ClockAuto lets Read take the clock from the exporter's era, told from the files.
	ClockAuto Clock = iota
	// ClockBytes is bytes allocated (VM parameter 34): every export since 2024-08-27
	// (exporter commit 395d06e), whatever the header says.
	ClockBytes
	// ClockMicros is Pharo's UTC microsecond clock: exports before 2024-08-27.
	ClockMicros
)

// clockNames are the names of the clocks, by value.
func clockNames() []string { return []string{"auto", "bytes", "us"} }

// String returns the name ParseClock accepts: "auto", "bytes" or "us".
func (c Clock) String() string { return enumName("Clock", clockNames(), c) }

// ParseClock parses "auto", "bytes" or "us" (case-insensitive, surrounding spaces ignored).
func ParseClock(s string) (Clock, error) { return parseEnum[Clock]("clock", clockNames(), nil, s) }

// DefaultNearEndFraction is the NearEndFraction Read uses when the option is 0: deaths
// within 0.1 % of the run of the latest death count as force-finalized at the end.
const DefaultNearEndFraction = 0.001

// Options tunes Read. The zero value detects everything.
type Options struct {
	// JSONPath is the metadata file. Empty: the CSV path with its extension replaced by .json;
	// that default file may be missing when SamplingRate is given, an explicitly named one may
	// not. ReadFrom uses it only to name the metadata in messages.
	JSONPath string
	// SamplingRate is the export's sampling rate, in (0, 1], as the user knows it; 0: the
	// metadata's. Without metadata, or with metadata that does not say the rate, it must be
	// given (the import fails with ErrUnknownSamplingRate); with metadata that says it, the two
	// must agree.
	SamplingRate float64
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

// Report tells what Read found and decided.
type Report struct {
	// Layout is one of the Layout* names.
	Layout string
	// Era names the exporter version that wrote the files, told from the layout, the
	// metadata's keys and profiler class, and, where those leave two clocks possible, the
	// timestamps (see docs/filip.md).
	Era string
	// Clock is the clock of the timestamps, detected or forced (never ClockAuto).
	Clock Clock
	// ClockReason says why: the era evidence for a detected clock, or that it was forced.
	ClockReason string
	// Profiler is the metadata's profiler class name ("" when absent).
	Profiler string
	// SamplingRate is the fraction of allocations recorded (the metadata's, or
	// Options.SamplingRate), Weight the weight every record was given, round(1/SamplingRate).
	SamplingRate float64
	Weight       uint32
	// TotalExecutionTime is the metadata's totalExecutionTime on the timestamps' clock (bytes
	// or microseconds), 0 when absent.
	TotalExecutionTime float64
	// GCCounts are the metadata's totalScavenges and totalFullGCs, nil unless both are given.
	GCCounts *GCCounts
	// Rows is the number of records imported; SkippedRows the number of bad rows skipped
	// (Options.SkipBadRows).
	Rows, SkippedRows int
	// FirstSkipped holds the messages of the first 10 skipped rows.
	FirstSkipped []string
	// Warnings lists what the reader assumed or found doubtful (missing metadata, a sampling
	// rate that is not 1/integer, evidence contradicting the era, ...).
	Warnings []string
}

// GCCounts are the garbage collections the profiler's VM statistics counted during the
// profiled run. The profiler perturbs them (its ephemerons are pre-tenured, its model objects
// allocated): they describe the profiled run, not the application's own.
type GCCounts struct {
	Scavenges int `json:"scavenges"`
	FullGCs   int `json:"fullGCs"`
}

// RowError describes a malformed CSV row. It wraps ErrBadRow.
type RowError struct {
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

// Error formats the problem as `filip: data.csv:17: field sizeInBytes: "-4" is negative`.
func (e *RowError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("filip: %s:%d: %s", e.File, e.Line, e.Problem)
	}
	return fmt.Sprintf("filip: %s:%d: field %s: %q %s", e.File, e.Line, e.Field, e.Value, e.Problem)
}

// Unwrap returns ErrBadRow.
func (e *RowError) Unwrap() error { return ErrBadRow }

// Read reads a FiLiP / Illimani object-lifetime export: the CSV of sampled allocation
// records at csvPath and its JSON run metadata (see Options.JSONPath). It returns the
// Profile on the bytes clock, every record weighing round(1/sampling rate), and a report of what
// it detected and assumed.
//
// Layouts. The header names the layout (its names are quoted by NeoCSV, the rows never are).
// Every layout the exporter wrote is read (the Layout* constants): the six columns
// finalizationTimeInMicroSeconds, sizeInBytes, initializationTimeInMicroSeconds,
// allocatedObjectClass, survivedScavenges, survivedFullGCs (survivedFullGC before v1.0.0), then
// forcedFinalization (true/false) in the older layouts, then the allocation-site columns of
// the layout. Fields are never escaped, so a selector holding a comma (the binary selector #,
// for one) splits a method's column: columns 1-6 (and forcedFinalization) are taken from the
// left, the site columns that cannot hold commas from the right, and everything in between is
// the method. The survived-GC counts are checked (integers or empty) but not kept; the
// allocation site is neither. An empty field is nil: an empty finalization time means never
// finalized (alive at the end), an empty count unknown, an empty forcedFinalization false, an
// empty class "(unknown)". Lines end in LF or CRLF; empty lines are skipped. Timestamps are
// integers or decimals (rounded to whole bytes on the bytes clock).
//
// Clocks. Since 2024-08-27 (exporter commit 395d06e) the timestamps and totalExecutionTime
// count bytes allocated (VM parameter 34) although the header still says microseconds; before,
// they were Pharo's absolute UTC microsecond clock. Options.Clock forces one; otherwise
// the era that wrote the files decides (detectEra): the layout, the rate key's spelling and
// the profiler's class name select the eras that could have written them; when those share a
// clock it is the clock, and when they do not (one layout was written on both sides of
// 395d06e) the timestamps decide, since every microsecond era stamped the absolute UTC clock
// (about 3.9 × 10^15). totalExecutionTime is on the timestamps' own clock in every era, so it
// says nothing about the unit. Report.Era and ClockReason give the evidence; evidence
// that contradicts the era becomes a warning.
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
// Metadata. The JSON (NeoJSON, keys in any order) gives totalExecutionTime (on the
// timestamps' clock: Meta.RunSeconds on the microsecond clock), totalScavenges and totalFullGCs
// (Meta.Reported*, Report.GCCounts), profiler (the class name: Meta.Profiler, "FiLiP" when
// absent) and the sampling rate, a fraction (0.01 for the default 1/100) under samplingRate,
// or under sampligRate before 2024-03-13, where values above 1 are the percentages written
// before 2024-03-07. averageLifetimes is ignored. Metadata over 16 MiB or holding a key twice
// is refused, and so is what would have to be guessed: metadata that is null, a key above
// holding null or a number that is not finite, a negative or fractional count, a
// totalExecutionTime that is not positive, and an export whose sampling rate neither the
// metadata nor Options.SamplingRate gives (ErrUnknownSamplingRate).
//
// Errors. A malformed row (wrong number of fields, a field that is not a number, negative, not
// finite, zero or too large a size, a death before the birth) fails the import with a
// *RowError wrapping ErrBadRow that names the file, line and field, unless
// Options.SkipBadRows is set. An empty file, a missing or unknown header, malformed
// metadata or a file with no valid rows fail with an error naming the file.
//
// Speed. Rows are parsed without allocating, a regular file in parallel chunks (one worker per
// CPU, up to 8, chunks of 1 MiB at least), and put in birth order by a radix sort; the result is
// the same as a sequential read, line numbers in messages included.
func Read(csvPath string, opts Options) (*profile.Profile, *Report, error) {
	f, err := os.Open(csvPath)
	if err != nil {
		return nil, nil, fmt.Errorf("filip: %w", err)
	}
	defer f.Close()
	var sizeHint int64 = -1
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		sizeHint = st.Size()
	}
	jsonPath, explicit := opts.JSONPath, opts.JSONPath != ""
	if !explicit {
		jsonPath = DefaultJSONPath(csvPath)
	}
	var meta io.Reader
	jf, err := os.Open(jsonPath)
	switch {
	case err == nil:
		defer jf.Close()
		meta = jf
	case explicit || !errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("filip: metadata: %w", err)
	}
	src := filipSource{seq: f, size: sizeHint}
	if sizeHint >= 0 {
		src.at = f
	}
	return readFiLiP(src, csvPath, meta, jsonPath, opts, filipTuning{})
}

// ReadFrom is Read on readers: csvName names the CSV in messages and in Meta.Source;
// meta is the JSON metadata, nil when there is none (opts.SamplingRate must then give the rate). The CSV is read sequentially.
func ReadFrom(csv io.Reader, csvName string, meta io.Reader, opts Options) (*profile.Profile, *Report, error) {
	jsonName := opts.JSONPath
	if jsonName == "" {
		jsonName = DefaultJSONPath(csvName)
	}
	var sizeHint int64 = -1
	if l, ok := csv.(interface{ Len() int }); ok {
		sizeHint = int64(l.Len())
	}
	return readFiLiP(filipSource{seq: csv, size: sizeHint}, csvName, meta, jsonName, opts, filipTuning{})
}

// DefaultJSONPath is where Read looks for an export's metadata unless
// Options.JSONPath says: beside the CSV, its extension replaced by .json.
func DefaultJSONPath(csvPath string) string {
	return strings.TrimSuffix(csvPath, filepath.Ext(csvPath)) + ".json"
}

// filipReader holds the state of one import. Rows are parsed into raw columns first (timestamps
// as read, in file order); finish then picks the clock, converts and sorts.
type filipReader struct {
	name        string
	jsonName    string
	opts        Options
	report      *Report
	layout      filipLayout
	oldSpelling bool // the header spells the sixth column survivedFullGC (before v1.0.0)
	line        int  // lines read so far (in a worker: of its chunk)
	slowRows    bool // parse every row with row, not rowFast (tests compare the two)

	// The class table: names in order of first appearance (an empty name as "(unknown)"), the
	// map from the name as written to its index, and a small cache in front of the map.
	names      []string
	classes    map[string]classCacheEntry
	classCache [64]classCacheEntry

	firstSkipped []*RowError // the first 10 skipped rows; formatted into the report last

	// The site table (filip_sites.go): names in order of first appearance, the map from the
	// key as built to its index, the scratch key, the names' bytes; siteShape is the layout's.
	siteShape     siteShape
	siteNames     []string
	sites         map[string]uint32
	siteBuf       []byte
	siteNameBytes int
	classBytes    int   // bytes of the class names
	namesErr      error // a name table's bound was passed (profile.ErrTooManyNames)
	// sharedNames, in a parallel worker, counts the new class [0] and site [1] names of every
	// worker, so that the bound holds for all of them together (a name new to two workers
	// counts twice: at most 8 times a real profile's few thousand); nil in a sequential read.
	sharedNames *[2]atomic.Int64

	class  []uint32
	size   []uint32
	birth  []float64
	death  []float64 // -1: empty (never finalized)
	forced []bool
	site   []uint32 // nil for a layout without site columns
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

// readFiLiP is the import behind Read and ReadFrom.
func readFiLiP(src filipSource, name string, meta io.Reader, jsonName string, opts Options, tune filipTuning) (*profile.Profile, *Report, error) {
	if opts.Clock < ClockAuto || opts.Clock > ClockMicros {
		return nil, nil, fmt.Errorf("filip: Options.Clock %d is not ClockAuto, ClockBytes or ClockMicros", int(opts.Clock))
	}
	if math.IsNaN(opts.NearEndFraction) || opts.NearEndFraction > 1 {
		return nil, nil, fmt.Errorf("filip: Options.NearEndFraction %v is not ≤ 1", opts.NearEndFraction)
	}
	if r := opts.SamplingRate; math.IsNaN(r) || r < 0 || r > 1 {
		return nil, nil, fmt.Errorf("filip: Options.SamplingRate %v is not in (0, 1]", r)
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

func newFiLiPReader(name string, opts Options, slowRows bool) *filipReader {
	return &filipReader{name: name, opts: opts, report: &Report{}, slowRows: slowRows,
		classes: make(map[string]classCacheEntry), sites: make(map[string]uint32)}
}

func (r *filipReader) warnf(format string, args ...any) {
	r.report.Warnings = append(r.report.Warnings, fmt.Sprintf(format, args...))
}
