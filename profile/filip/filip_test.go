package filip

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// filipHeader8 is the current layout's header.
const filipHeader8 = `"finalizationTimeInMicroSeconds","sizeInBytes","initializationTimeInMicroSeconds","allocatedObjectClass","survivedScavenges","survivedFullGCs","textualAllocatorMethod","textualAllocatorMethodOffset"`

// wantRec is one expected record, in the Profile's (birth) order.
type wantRec struct {
	class        string
	size         uint32
	birth, death uint64
	alive        bool
}

func profileRecs(p *profile.Profile) []wantRec {
	out := make([]wantRec, p.Len())
	for i := range out {
		out[i] = wantRec{p.ClassName(i), p.SizeBytes[i], p.Birth[i], p.Death[i], p.AliveAtEnd(i)}
	}
	return out
}

func TestReadFiLiPFixtures(t *testing.T) {
	// Records of the three-row fixtures of the eras between 4dcd239 and v1.2.
	usRecs := []wantRec{ // microseconds, weight 100: cumulative 2400, 5600, 7200
		{"ByteString", 24, 2400, 6400, false}, // dies halfway from 5600 to 7200
		{"Array", 32, 5600, 7200, false},      // dies after the last birth: the end
		{"Fraction", 16, 7200, 7200, true},    // forcedFinalization true
	}
	usMeta := func(profiler string) profile.Meta {
		return profile.Meta{Profiler: profiler, EndBytes: 7200, TotalAllocatedBytes: 7200, RunSeconds: 0.0004,
			SamplingRate: 0.01, ReportedScavenges: 1}
	}
	bytesRecs := []wantRec{ // bytes, shifted by the absolute reading: origin 2400 - 100 × 24
		{"ByteString", 24, 2400, 6400, false},
		{"Array", 32, 5600, 9000, false},
		{"Fraction", 16, 7200, 9100, true},
	}
	bytesMeta := profile.Meta{Profiler: "IllMemoryProfiler", EndBytes: 9100, TotalAllocatedBytes: 9100, SamplingRate: 0.01, ReportedScavenges: 2}
	const noRebuild = "on the microsecond clock cannot be rebuilt"
	tests := []struct {
		name      string
		csv       string
		opts      Options
		layout    string
		era       string // a substring of Era
		clock     Clock
		reason    string // a substring of ClockReason
		weight    uint32
		meta      profile.Meta // Source is checked separately
		recs      []wantRec
		skipped   int
		warnings  []string // substrings, one per warning, in order
		firstSkip []string // substrings of FirstSkipped, in order
	}{
		{
			// FiLiP today: bytes clock, 1/10 sampling; rows in death order; an absolute reading
			// (B + ...) shifted by B + 1160 - 10×16; three deaths within 0.1 % of the run (10
			// bytes) of the latest are the objects force-finalized at the end.
			name: "FiLiP (current exporter)", csv: "era-filip.csv",
			layout: LayoutCurrent, era: "FiLiP (9f1d62e", clock: ClockBytes, reason: "profiler FiLiP: bytes allocated (VM parameter 34", weight: 10,
			meta: profile.Meta{Profiler: "FiLiP", EndBytes: 10160, TotalAllocatedBytes: 10160,
				SamplingRate: 0.1, ReportedScavenges: 12, ReportedFullGCs: 1},
			recs: []wantRec{
				{"Fraction", 16, 160, 1160, false},
				{"NumberParser", 40, 400, 2000, false},
				{"ByteString", 24, 1000, 8000, false},
				{"ByteString", 24, 4000, 10160, true}, // the latest death
				{"Array", 80, 6000, 10160, true},      // 5 bytes before it
				{"Array", 32, 7000, 10100, false},     // 60 bytes before it
				{"Fraction", 16, 9000, 10160, true},   // at the latest death
			},
		},
		{
			name: "Illimani v1.2", csv: "era-v1.2.csv",
			layout: LayoutAllocatorMethod, era: "v1.2 (29404af", clock: ClockBytes, reason: "profiler IllMemoryProfiler: bytes", weight: 100,
			meta: bytesMeta, recs: bytesRecs,
		},
		{
			name: "d1a591b", csv: "era-d1a591b.csv",
			layout: LayoutForcedAllocatorMethodByte, era: "d1a591b", clock: ClockBytes, reason: "bytes", weight: 100,
			meta: bytesMeta, recs: bytesRecs,
		},
		{
			name: "330a870", csv: "era-330a870.csv",
			layout: LayoutForcedAllocatorMethodClassByte, era: "330a870", clock: ClockBytes, reason: "bytes", weight: 100,
			meta: bytesMeta, recs: bytesRecs,
		},
		{
			name: "c5c46f5", csv: "era-c5c46f5.csv",
			layout: LayoutForcedAllocatorMethod, era: "c5c46f5", clock: ClockBytes, reason: "bytes", weight: 100,
			meta: bytesMeta, recs: bytesRecs,
		},
		{
			// Ambiguous: IllMemoryProfiler wrote this layout on both clocks; the timestamps are
			// not the absolute UTC microsecond clock.
			name: "395d06e", csv: "era-395d06e.csv",
			layout: LayoutForcedAllocationSite, era: "395d06e", clock: ClockBytes,
			reason: "were written on both clocks; the timestamps (7.34e+09 to 7.34e+09) are not Pharo's absolute UTC microsecond clock", weight: 100,
			meta: bytesMeta, recs: bytesRecs,
		},
		{
			// Ambiguous likewise; the timestamps are the absolute UTC microsecond clock.
			name: "5f26563", csv: "era-5f26563.csv",
			layout: LayoutForcedAllocationSite, era: "5f26563", clock: ClockMicros,
			reason: "lie in the band of Pharo's absolute UTC microsecond clock: microseconds", weight: 100,
			meta: usMeta("IllMemoryProfiler"), recs: usRecs, warnings: []string{noRebuild},
		},
		{
			name: "4dcd239", csv: "era-4dcd239.csv",
			layout: LayoutForcedAllocationSite, era: "4dcd239", clock: ClockMicros,
			reason: "profiler IllObjectLifetimesProfiler: microseconds", weight: 100,
			meta: usMeta("IllObjectLifetimesProfiler"), recs: usRecs, warnings: []string{noRebuild},
		},
		{
			name: "a2e61ff", csv: "era-a2e61ff.csv",
			layout: LayoutForcedAllocatorClassMethod, era: "a2e61ff", clock: ClockMicros, reason: "microseconds", weight: 1,
			meta: profile.Meta{Profiler: "IllAllocationSitePlusFinalizationProfiler", EndBytes: 72, TotalAllocatedBytes: 72,
				RunSeconds: 0.0004, SamplingRate: 1, ReportedScavenges: 1},
			recs: []wantRec{
				{"ByteString", 24, 24, 64, false},
				{"Array", 32, 56, 72, false},
				{"Fraction", 16, 72, 72, true},
			},
		},
		{
			// Microseconds, 1/2 sampling. Cumulative weighted bytes at the birth instants 100,
			// 200, 300, 400, 600 µs: 80, 160, 208, 368, 464.
			name: "Illimani v1.1", csv: "era-v1.1.csv",
			layout: LayoutForcedFinalization, era: "v1.0-v1.1", clock: ClockMicros,
			reason: "profiler IllObjectLifetimesProfiler: microseconds", weight: 2,
			meta: profile.Meta{Profiler: "IllObjectLifetimesProfiler", EndBytes: 464, TotalAllocatedBytes: 464, RunSeconds: 0.001,
				SamplingRate: 0.5, ReportedScavenges: 3},
			recs: []wantRec{
				{"Fraction", 16, 80, 120, false},      // dies at 150 µs, halfway from 80 to 160
				{"Fraction", 24, 80, 368, false},      // same birth instant; dies at 400 µs, an instant
				{"NumberParser", 40, 160, 208, false}, // dies at 300 µs
				{"ByteString", 24, 208, 464, true},    // forcedFinalization true
				{"Array", 80, 368, 416, false},        // dies at 500 µs, halfway from 368 to 464
				{"Array", 32, 464, 464, false},        // dies at 700 µs, after the last birth: the end
				{"ByteString", 16, 464, 464, true},    // forcedFinalization true
			},
			warnings: []string{noRebuild},
		},
		{
			// The forcedFinalization column decides, the near-end rule is off: the Fractions
			// dying at or just before the latest timestamp with forcedFinalization false did die.
			// Cumulative bytes at 100, 150, 250, 300, 400 µs: 24, 56, 72, 88, 128.
			name: "Illimani v1.0", csv: "era-v1.0.csv",
			layout: LayoutForcedFinalization, era: "v1.0-v1.1", clock: ClockMicros,
			reason: "profiler IllFinalizationProfiler: microseconds", weight: 1,
			meta: profile.Meta{Profiler: "IllFinalizationProfiler", EndBytes: 128, TotalAllocatedBytes: 128, RunSeconds: 0.001,
				SamplingRate: 1, ReportedScavenges: 3, ReportedFullGCs: 1},
			recs: []wantRec{
				{"ByteString", 24, 24, 64, false},
				{"Array", 32, 56, 128, true},
				{"Fraction", 16, 72, 128, false},
				{"Fraction", 16, 88, 128, false},
				{"Array", 40, 128, 128, true},
			},
		},
		{
			// sampligRate 25 is a percentage: weight 4; survivedFullGC spelling. Cumulative
			// bytes at 1000, 1500, 2500 µs: 96, 224, 288.
			name: "Illimani 4ffe1bc", csv: "era-4ffe1bc.csv",
			layout: LayoutForcedFinalization, era: "4ffe1bc", clock: ClockMicros,
			reason: "layout forcedFinalization with survivedFullGC, metadata key sampligRate (until 2024-03-13), profiler IllFinalizationProfiler: microseconds", weight: 4,
			meta: profile.Meta{Profiler: "IllFinalizationProfiler", EndBytes: 288, TotalAllocatedBytes: 288, RunSeconds: 0.008,
				SamplingRate: 0.25, ReportedScavenges: 1},
			recs: []wantRec{
				{"ByteString", 24, 96, 256, false},
				{"Array", 32, 224, 288, false},
				{"Fraction", 16, 288, 288, true},
			},
			warnings: []string{noRebuild},
		},
		{
			name: "selectors with commas", csv: "commas.csv", opts: Options{SamplingRate: 1},
			layout: LayoutCurrent, era: "FiLiP", clock: ClockBytes, reason: "layout textualAllocatorMethod: bytes", weight: 1,
			meta: profile.Meta{Profiler: "FiLiP", EndBytes: 374, TotalAllocatedBytes: 374, SamplingRate: 1},
			recs: []wantRec{
				{"ByteString", 24, 24, 124, false},
				{"Array", 32, 74, 224, false},
				{"Point", 16, 174, 324, false},
				{"Point", 16, 184, 374, true},
			},
			warnings: []string{"no metadata (testdata/filip/commas.json)"},
		},
		{
			name: "CRLF", csv: "crlf.csv", opts: Options{SamplingRate: 1},
			layout: LayoutCurrent, clock: ClockBytes, weight: 1,
			meta: profile.Meta{Profiler: "FiLiP", EndBytes: 224, TotalAllocatedBytes: 224, SamplingRate: 1},
			recs: []wantRec{
				{"ByteString", 24, 24, 124, false},
				{"Array", 32, 74, 224, true},
				{"Fraction", 16, 174, 224, true},
			},
			warnings: []string{"no metadata"},
		},
		{
			name: "missing json, rate given", csv: "nojson.csv", opts: Options{SamplingRate: 1},
			layout: LayoutCurrent, clock: ClockBytes, weight: 1,
			meta: profile.Meta{Profiler: "FiLiP", EndBytes: 224, TotalAllocatedBytes: 224, SamplingRate: 1},
			recs: []wantRec{
				{"ByteString", 24, 24, 124, false},
				{"Array", 32, 74, 224, true},
			},
			warnings: []string{"no metadata (testdata/filip/nojson.json): sampling rate 1 as given"},
		},
		{
			name: "json path given", csv: "nojson.csv", opts: Options{JSONPath: "testdata/filip/era-filip.json"},
			layout: LayoutCurrent, clock: ClockBytes, reason: "profiler FiLiP", weight: 10,
			meta: profile.Meta{Profiler: "FiLiP", EndBytes: 300, TotalAllocatedBytes: 300,
				SamplingRate: 0.1, ReportedScavenges: 12, ReportedFullGCs: 1},
			recs: []wantRec{
				{"ByteString", 24, 100, 200, false},
				{"Array", 32, 150, 300, true},
			},
			warnings: []string{"the small records stand for 560 bytes but the clock counted only 300"},
		},
		{
			name: "bad rows skipped", csv: "badrows.csv", opts: Options{SkipBadRows: true},
			layout: LayoutCurrent, clock: ClockBytes, reason: "profiler FiLiP", weight: 1,
			meta: profile.Meta{Profiler: "FiLiP", EndBytes: 324, TotalAllocatedBytes: 324, SamplingRate: 1},
			recs: []wantRec{
				{"ByteString", 24, 24, 124, false},
				{"Fraction", 16, 174, 324, true},
			},
			skipped: 11,
			firstSkip: []string{
				`badrows.csv:3: field sizeInBytes: "-4" is negative`,
				`badrows.csv:4: field sizeInBytes: "0" is zero`,
				`badrows.csv:5: field initializationTimeInMicroSeconds: "abc" is not a number`,
				`badrows.csv:6: field finalizationTimeInMicroSeconds: "NaN" is not finite`,
				`badrows.csv:7: field initializationTimeInMicroSeconds: "Inf" is not finite`,
				`badrows.csv:8: field finalizationTimeInMicroSeconds: "100" is before initializationTimeInMicroSeconds "150"`,
				`badrows.csv:9: row has 4 fields, want 8`,
				`badrows.csv:10: field survivedScavenges: "x" is not a number`,
				`badrows.csv:11: field sizeInBytes: "1.5" is not an integer`,
				`badrows.csv:13: field survivedFullGCs: "-1" is negative`,
			},
		},
		{
			// The bytes export read as microseconds: cumulative bytes at the birth instants
			// 1160, 1400, 2000, 5000, 7000, 8000, 10000: 160, 560, 800, 1040, 1840, 2160, 2320.
			name: "clock forced to us", csv: "era-filip.csv", opts: Options{Clock: ClockMicros},
			layout: LayoutCurrent, clock: ClockMicros, reason: "forced to us by option", weight: 10,
			meta: profile.Meta{Profiler: "FiLiP", EndBytes: 2320, TotalAllocatedBytes: 2320, RunSeconds: 0.0105,
				SamplingRate: 0.1, ReportedScavenges: 12, ReportedFullGCs: 1},
			recs: []wantRec{
				{"Fraction", 16, 160, 813, false},     // 2160: 800 + 160/3000 × 240 = 812.8
				{"NumberParser", 40, 560, 880, false}, // 3000: 800 + 1000/3000 × 240
				{"ByteString", 24, 800, 2240, false},  // 9000: halfway from 2160 to 2320
				{"ByteString", 24, 1040, 2320, true},  // near the end
				{"Array", 80, 1840, 2320, true},       // near the end
				{"Array", 32, 2160, 2320, false},      // 11100, after the last birth
				{"Fraction", 16, 2320, 2320, true},    // near the end
			},
			warnings: []string{"clock forced to us; the era says bytes", noRebuild},
		},
		{
			// The microsecond export read as bytes: origin 100 - 2×16 = 68.
			name: "clock forced to bytes", csv: "era-v1.1.csv", opts: Options{Clock: ClockBytes},
			layout: LayoutForcedFinalization, clock: ClockBytes, reason: "forced to bytes by option", weight: 2,
			meta: profile.Meta{Profiler: "IllObjectLifetimesProfiler", EndBytes: 932, TotalAllocatedBytes: 932,
				SamplingRate: 0.5, ReportedScavenges: 3},
			recs: []wantRec{
				{"Fraction", 16, 32, 82, false},
				{"Fraction", 24, 32, 332, false},
				{"NumberParser", 40, 132, 232, false},
				{"ByteString", 24, 232, 932, true},
				{"Array", 80, 332, 432, false},
				{"Array", 32, 532, 632, false},
				{"ByteString", 16, 532, 932, true},
			},
			warnings: []string{"clock forced to bytes; the era says us"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("testdata", "filip", tt.csv)
			p, rep, err := Read(path, tt.opts)
			require.NoError(t, err)
			require.NoError(t, p.Validate())
			assert.Equal(t, tt.layout, rep.Layout)
			assert.Equal(t, tt.clock, rep.Clock)
			assert.Contains(t, rep.ClockReason, tt.reason)
			assert.Contains(t, rep.Era, tt.era)
			assert.Equal(t, len(tt.recs), rep.Rows)
			assert.Equal(t, tt.skipped, rep.SkippedRows)
			assert.Equal(t, tt.recs, profileRecs(p))
			for i := range p.Len() {
				assert.Equal(t, tt.weight, p.Weight[i], "weight of record %d", i)
			}
			want := tt.meta
			want.Source = path
			assert.Equal(t, want, p.Meta)
			require.Len(t, rep.Warnings, len(tt.warnings), "warnings: %q", rep.Warnings)
			for i, w := range tt.warnings {
				assert.Contains(t, rep.Warnings[i], w)
			}
			require.Len(t, rep.FirstSkipped, len(tt.firstSkip))
			for i, s := range tt.firstSkip {
				assert.Equal(t, "filip: testdata/filip/"+s, rep.FirstSkipped[i])
			}

			// The reader-based entry point gives the same profile.
			csv, err := os.ReadFile(path)
			require.NoError(t, err)
			var meta *bytes.Reader
			jsonPath := tt.opts.JSONPath
			if jsonPath == "" {
				jsonPath = DefaultJSONPath(path)
			}
			if j, err := os.ReadFile(jsonPath); err == nil {
				meta = bytes.NewReader(j)
			}
			var p2 *profile.Profile
			var rep2 *Report
			if meta == nil {
				p2, rep2, err = ReadFrom(bytes.NewReader(csv), path, nil, withRate(tt.opts))
			} else {
				p2, rep2, err = ReadFrom(bytes.NewReader(csv), path, meta, tt.opts)
			}
			require.NoError(t, err)
			assert.Equal(t, p, p2)
			assert.Equal(t, rep, rep2)
		})
	}
}

func TestReadFiLiPBadRows(t *testing.T) {
	good := "200,24,100,ByteString,0,0,String class>>new:,11"
	tests := []struct {
		name, row string
		field     string // "" for a column-count error
		msg       string // the whole message after "filip: data.csv:3: "
	}{
		{"too few columns", "200,24,100,ByteString,0,0,String class>>new:", "", "row has 7 fields, want 8"},
		{"far too few columns", "200", "", "row has 1 fields, want 8"},
		{"negative size", "300,-4,150,Array,0,0,a,1", "sizeInBytes", `field sizeInBytes: "-4" is negative`},
		{"zero size", "300,0,150,Array,0,0,a,1", "sizeInBytes", `field sizeInBytes: "0" is zero`},
		{"empty size", "300,,150,Array,0,0,a,1", "sizeInBytes", `field sizeInBytes: "" is empty`},
		{"huge size", "300,4294967296,150,Array,0,0,a,1", "sizeInBytes", `field sizeInBytes: "4294967296" is too large (over 4 GiB)`},
		{"fractional size", "300,1.5,150,Array,0,0,a,1", "sizeInBytes", `field sizeInBytes: "1.5" is not an integer`},
		{"death before birth", "100,32,150,Array,0,0,a,1", "finalizationTimeInMicroSeconds",
			`field finalizationTimeInMicroSeconds: "100" is before initializationTimeInMicroSeconds "150"`},
		{"non-number birth", "300,32,abc,Array,0,0,a,1", "initializationTimeInMicroSeconds",
			`field initializationTimeInMicroSeconds: "abc" is not a number`},
		{"empty birth", "300,32,,Array,0,0,a,1", "initializationTimeInMicroSeconds",
			`field initializationTimeInMicroSeconds: "" is empty`},
		{"negative birth", "300,32,-1.5,Array,0,0,a,1", "initializationTimeInMicroSeconds",
			`field initializationTimeInMicroSeconds: "-1.5" is negative`},
		{"NaN death", "NaN,32,150,Array,0,0,a,1", "finalizationTimeInMicroSeconds",
			`field finalizationTimeInMicroSeconds: "NaN" is not finite`},
		{"Inf birth", "300,32,+Inf,Array,0,0,a,1", "initializationTimeInMicroSeconds",
			`field initializationTimeInMicroSeconds: "+Inf" is not finite`},
		{"out of range death", "1e400,32,150,Array,0,0,a,1", "finalizationTimeInMicroSeconds",
			`field finalizationTimeInMicroSeconds: "1e400" is too large`},
		{"beyond 2^53", "10000000000000000,32,150,Array,0,0,a,1", "finalizationTimeInMicroSeconds",
			`field finalizationTimeInMicroSeconds: "10000000000000000" is too large`},
		{"non-number survived", "300,32,150,Array,x,0,a,1", "survivedScavenges", `field survivedScavenges: "x" is not a number`},
		{"negative survived", "300,32,150,Array,0,-1,a,1", "survivedFullGCs", `field survivedFullGCs: "-1" is negative`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			csv := filipHeader8 + "\n" + good + "\n" + tt.row + "\n" + good + "\n"
			_, _, err := ReadFrom(strings.NewReader(csv), "data.csv", nil, Options{SamplingRate: 1})
			require.Error(t, err)
			assert.Equal(t, "filip: data.csv:3: "+tt.msg, err.Error())
			assert.ErrorIs(t, err, ErrBadRow)
			var rowErr *RowError
			require.ErrorAs(t, err, &rowErr)
			assert.Equal(t, 3, rowErr.Line)
			assert.Equal(t, tt.field, rowErr.Field)

			p, rep, err := ReadFrom(strings.NewReader(csv), "data.csv", nil, Options{SamplingRate: 1, SkipBadRows: true})
			require.NoError(t, err)
			assert.Equal(t, 2, p.Len())
			assert.Equal(t, 2, rep.Rows)
			assert.Equal(t, 1, rep.SkippedRows)
			assert.Equal(t, []string{"filip: data.csv:3: " + tt.msg}, rep.FirstSkipped)
		})
	}
}

func TestReadFiLiPForcedLayoutBadRows(t *testing.T) {
	header := `finalizationTimeInMicroSeconds,sizeInBytes,initializationTimeInMicroSeconds,allocatedObjectClass,survivedScavenges,survivedFullGCs,forcedFinalization`
	for row, msg := range map[string]string{
		"300,32,150,Array,0,0,yes":        `field forcedFinalization: "yes" is not true or false`,
		"300,32,150,Array,0,0,true,extra": "row has 8 fields, want 7",
	} {
		_, _, err := ReadFrom(strings.NewReader(header+"\n"+row+"\n"), "old.csv", nil, Options{SamplingRate: 1})
		require.Error(t, err)
		assert.Equal(t, "filip: old.csv:2: "+msg, err.Error())
		assert.ErrorIs(t, err, ErrBadRow)
	}
	// The layouts with site columns after forcedFinalization: the method's commas are its own.
	header10 := `"finalizationTimeInMicroSeconds","sizeInBytes","initializationTimeInMicroSeconds","allocatedObjectClass","survivedScavenges","survivedFullGCs","forcedFinalization","allocatorMethod","allocatorClass","allocatorMethodByte"`
	for row, msg := range map[string]string{
		"300,32,150,Array,0,0,maybe,Foo>>#,,Foo,3": `field forcedFinalization: "maybe" is not true or false`,
		"300,32,150,Array,0,0,true,Foo>>#bar":      "row has 8 fields, want 10",
		"300,32,150,Array,0,0,true":                "row has 7 fields, want 10",
	} {
		_, _, err := ReadFrom(strings.NewReader(header10+"\n"+row+"\n"), "dev.csv", nil, Options{SamplingRate: 1})
		require.Error(t, err)
		assert.Equal(t, "filip: dev.csv:2: "+msg, err.Error())
	}
	p, rep, err := ReadFrom(strings.NewReader(header10+"\n300,32,150,Array,0,0,false,SequenceableCollection>>#,,OrderedCollection,3\n"), "dev.csv", nil, Options{SamplingRate: 1})
	require.NoError(t, err)
	assert.Equal(t, LayoutForcedAllocatorMethodClassByte, rep.Layout)
	assert.Equal(t, 1, p.Len())

	// Spaces and capitals are tolerated.
	p, _, err = ReadFrom(strings.NewReader(header+"\n300,32,150,Array,0,0, True \n400,32,150,Array,0,0,FALSE\n"), "old.csv", nil, Options{SamplingRate: 1})
	require.NoError(t, err)
	assert.True(t, p.AliveAtEnd(0))
	assert.False(t, p.AliveAtEnd(1))
}

func TestReadFiLiPBadInput(t *testing.T) {
	row := "200,24,100,ByteString,0,0,String class>>new:,11\n"
	tests := []struct {
		name, csv, json string // json "-" = none
		opts            Options
		want            string
	}{
		{"empty file", "", "-", Options{SamplingRate: 1}, "filip: data.csv: empty file: no header"},
		{"blank lines only", "\n\r\n\n", "-", Options{SamplingRate: 1}, "filip: data.csv: empty file: no header"},
		{"header only", filipHeader8 + "\n", "-", Options{SamplingRate: 1}, "filip: data.csv: no rows after the header"},
		{"only bad rows", filipHeader8 + "\n1,2\n", "-", Options{SamplingRate: 1, SkipBadRows: true},
			"filip: data.csv: no valid rows (1 bad rows skipped, the first: filip: data.csv:2: row has 2 fields, want 8)"},
		{"header missing", row + row, "-", Options{SamplingRate: 1},
			`filip: data.csv:1: no header: the first line is a data row (want a header starting with "finalizationTimeInMicroSeconds")`},
		{"header missing, empty first field", "," + row, "-", Options{SamplingRate: 1}, "filip: data.csv:1: no header"},
		{"unknown header", "a,b,c\n" + row, "-", Options{SamplingRate: 1}, `filip: data.csv:1: unknown header "a,b,c": want one of the FiLiP layouts`},
		{"malformed json", filipHeader8 + "\n" + row, `{"samplingRate": }`, Options{},
			"filip: data.json: invalid metadata JSON: invalid character '}' looking for beginning of value"},
		{"json not an object", filipHeader8 + "\n" + row, `[1]`, Options{},
			"filip: data.json: invalid metadata JSON: a JSON array, want an object: json: cannot unmarshal"},
		{"json wrong type", filipHeader8 + "\n" + row, `{"samplingRate": "1"}`, Options{},
			"filip: data.json: invalid metadata JSON: samplingRate is a JSON string, want a number: json: cannot unmarshal"},
		{"zero sampling rate", filipHeader8 + "\n" + row, `{"samplingRate": 0}`, Options{},
			"filip: data.json: samplingRate 0 is not a fraction in (0, 1] (the exporter writes 1/100 as 0.01)"},
		{"percentage under samplingRate", filipHeader8 + "\n" + row, `{"samplingRate": 10}`, Options{},
			"filip: data.json: samplingRate 10 is not a fraction in (0, 1]"},
		{"duplicate key", filipHeader8 + "\n" + row, "{\n\t\"samplingRate\" : 0.01,\n\t\"samplingRate\" : 1\n}", Options{},
			`filip: data.json: invalid metadata JSON: key "samplingRate" appears twice`},
		{"profiler not a string", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "profiler": 3}`, Options{},
			"filip: data.json: invalid metadata: profiler is 3, want the profiler's class name as a string"},
		{"metadata over its cap", filipHeader8 + "\n" + row, `{"profiledCode": "` + strings.Repeat("x", filipMaxMetaBytes) + `"}`, Options{},
			"filip: data.json: metadata larger than 16 MiB: not a FiLiP metadata file"},
		{"sampling rate over 100", filipHeader8 + "\n" + row, `{"sampligRate": 150}`, Options{},
			"filip: data.json: sampligRate 150 is neither a fraction in (0, 1] nor a percentage in (1, 100]"},
		// What cannot be known is refused, not guessed (issue 21): each message names its key.
		{"no metadata", filipHeader8 + "\n" + row, "-", Options{},
			"filip: data.csv: sampling rate unknown: no metadata data.json"},
		{"metadata without the rate", filipHeader8 + "\n" + row, `{"totalScavenges": 3}`, Options{},
			"filip: data.csv: sampling rate unknown: its metadata data.json has no samplingRate"},
		{"metadata null", filipHeader8 + "\n" + row, ` null `, Options{},
			"filip: data.json: the metadata is null, want an object"},
		{"metadata null, rate given", filipHeader8 + "\n" + row, `null`, Options{SamplingRate: 0.01},
			"filip: data.json: the metadata is null, want an object"},
		{"sampling rate null", filipHeader8 + "\n" + row, `{"samplingRate": null}`, Options{},
			"filip: data.json: samplingRate is null, want a value"},
		{"sampligRate null", filipHeader8 + "\n" + row, `{"sampligRate": null}`, Options{SamplingRate: 0.01},
			"filip: data.json: sampligRate is null"},
		{"time null", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "totalExecutionTime": null}`, Options{},
			"filip: data.json: totalExecutionTime is null"},
		{"profiler null", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "profiler": null}`, Options{},
			"filip: data.json: profiler is null"},
		{"infinite rate", filipHeader8 + "\n" + row, `{"samplingRate": 1e999}`, Options{},
			"filip: data.json: samplingRate 1e999 is not a finite number"},
		{"infinite count", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "totalScavenges": -1E+400}`, Options{},
			"filip: data.json: totalScavenges -1E+400 is not a finite number"},
		{"negative count", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "totalScavenges": -3}`, Options{},
			"filip: data.json: totalScavenges -3 is not a count"},
		{"fractional count", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "totalFullGCs": 2.5}`, Options{},
			"filip: data.json: totalFullGCs 2.5 is not a count"},
		{"zero run length", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "totalExecutionTime": 0}`, Options{},
			"filip: data.json: totalExecutionTime 0 is not a run's length"},
		{"absurd run length", filipHeader8 + "\n" + row, `{"samplingRate": 0.01, "totalExecutionTime": 1e308}`, Options{},
			"filip: data.json: totalExecutionTime 1e+308 is not a run's length"},
		{"given rate contradicts the metadata", filipHeader8 + "\n" + row, `{"samplingRate": 0.01}`, Options{SamplingRate: 0.001},
			"filip: data.json: the given sampling rate 0.001 contradicts the metadata's samplingRate 0.01"},
		{"given rate out of range", filipHeader8 + "\n" + row, "-", Options{SamplingRate: 2},
			"filip: Options.SamplingRate 2 is not in (0, 1]"},
		{"tiny sampling rate", filipHeader8 + "\n" + row, `{"samplingRate": 1e-12}`, Options{},
			"filip: data.json: samplingRate 1e-12 is too small"},
		{"json named in options", filipHeader8 + "\n" + row, "{", Options{JSONPath: "run.json"},
			"filip: run.json: invalid metadata JSON"},
		{"bad clock option", filipHeader8 + "\n" + row, "-", Options{SamplingRate: 1, Clock: 7},
			"filip: Options.Clock 7 is not ClockAuto, ClockBytes or ClockMicros"},
		{"bad near-end option", filipHeader8 + "\n" + row, "-", Options{SamplingRate: 1, NearEndFraction: 2},
			"filip: Options.NearEndFraction 2 is not ≤ 1"},
		{"line too long", filipHeader8 + "\n" + strings.Repeat("1", filipMaxLineBytes+1), "-", Options{SamplingRate: 1},
			"filip: data.csv:2: line longer than 16777216 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var meta *strings.Reader
			var err error
			if tt.json == "-" {
				_, _, err = ReadFrom(strings.NewReader(tt.csv), "data.csv", nil, tt.opts)
			} else {
				meta = strings.NewReader(tt.json)
				_, _, err = ReadFrom(strings.NewReader(tt.csv), "data.csv", meta, tt.opts)
			}
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tt.want), "error %q, want it to start with %q", err, tt.want)
		})
	}
}

func TestReadFiLiPFiles(t *testing.T) {
	dir := t.TempDir()
	_, _, err := Read(filepath.Join(dir, "missing.csv"), Options{})
	require.Error(t, err)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "missing.csv")

	// A metadata file named explicitly must exist.
	_, _, err = Read("testdata/filip/nojson.csv", Options{JSONPath: filepath.Join(dir, "run.json")})
	require.Error(t, err)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "run.json")

	// A malformed metadata file is named.
	_, _, err = Read("testdata/filip/malformed.csv", Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "filip: testdata/filip/malformed.json: invalid metadata JSON")

	// A CSV without an extension gets "<name>.json".
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run"), []byte(filipHeader8+"\n200,24,100,A,0,0,m,1\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), []byte(`{"samplingRate": 0.01}`), 0o644))
	p, _, err := Read(filepath.Join(dir, "run"), Options{})
	require.NoError(t, err)
	assert.Equal(t, uint32(100), p.Weight[0])
}

func TestReadFiLiPSamplingRate(t *testing.T) {
	csv := filipHeader8 + "\n2000,24,1000,A,0,0,m,1\n"
	for _, tt := range []struct {
		json    string
		rate    float64
		weight  uint32
		warning string
	}{
		{`{"samplingRate": 1}`, 1, 1, ""},
		{`{"samplingRate": 0.01}`, 0.01, 100, ""},
		{`{"samplingRate": 0.001}`, 0.001, 1000, "the small records stand for 24000 bytes but the clock counted only 2000"},
		{`{"samplingRate": 0.3333333333333333}`, 0.3333333333333333, 3, ""},
		{`{"sampligRate": 0.25}`, 0.25, 4, ""},
		{`{"sampligRate": 25}`, 0.25, 4, ""}, // a percentage, before 531b884
		{`{"sampligRate": 100}`, 1, 1, ""},   // the percentage era's default
		{`{"sampligRate": 1}`, 1, 1, "sampligRate 1 read as every allocation"},
		{`{"samplingRate": 0.5, "sampligRate": 0.25}`, 0.5, 2, "has both samplingRate and sampligRate: samplingRate taken"},
		{`{"sampligRate": 30}`, 0.3, 3, "sampling rate 30 is not 1/integer: records weigh 3"},
	} {
		t.Run(tt.json, func(t *testing.T) {
			p, rep, err := ReadFrom(strings.NewReader(csv), "d.csv", strings.NewReader(tt.json), Options{Clock: ClockBytes})
			require.NoError(t, err)
			assert.Equal(t, tt.rate, p.Meta.SamplingRate)
			assert.Equal(t, tt.weight, p.Weight[0])
			if tt.warning == "" {
				assert.Empty(t, rep.Warnings)
			} else {
				require.NotEmpty(t, rep.Warnings)
				assert.Contains(t, rep.Warnings[0], tt.warning)
			}
		})
	}
}

func TestReadFiLiPEmptyFields(t *testing.T) {
	// The exporter never writes an empty field, but a hand-made file may: an empty death is
	// alive at the end, an empty class "(unknown)", empty counts unknown.
	csv := filipHeader8 + "\n200,24,100,ByteString,,,,\n,32,150,Array,,,Array class>>#new:,\n300,16,250,,0,0,m,1\n"
	p, _, err := ReadFrom(strings.NewReader(csv), "e.csv", nil, Options{SamplingRate: 1})
	require.NoError(t, err)
	assert.Equal(t, []wantRec{{"ByteString", 24, 24, 124, false}, {"Array", 32, 74, 224, true}, {"(unknown)", 16, 174, 224, true}}, profileRecs(p))
}

func TestReadFiLiPNearEnd(t *testing.T) {
	// Run from 0 to 100000; the latest death is at 100000.
	csv := filipHeader8 + "\n50000,24,0,A,0,0,m,1\n99000,24,10,A,0,0,m,1\n99950,24,20,A,0,0,m,1\n100000,24,30,A,0,0,m,1\n"
	for _, tt := range []struct {
		fraction float64
		alive    []bool
	}{
		{0, []bool{false, false, true, true}},     // default 0.1 %: from 99900
		{0.02, []bool{false, true, true, true}},   // from 98000
		{1, []bool{true, true, true, true}},       // from 0
		{-1, []bool{false, false, false, false}},  // off
		{1e-9, []bool{false, false, false, true}}, // only the latest
	} {
		p, _, err := ReadFrom(strings.NewReader(csv), "d.csv", nil, Options{SamplingRate: 1, Clock: ClockBytes, NearEndFraction: tt.fraction})
		require.NoError(t, err)
		var alive []bool
		for i := range p.Len() {
			alive = append(alive, p.AliveAtEnd(i))
			if p.AliveAtEnd(i) {
				assert.Equal(t, p.Meta.EndBytes, p.Death[i])
			}
		}
		assert.Equal(t, tt.alive, alive, "fraction %v", tt.fraction)
	}
}

func TestReadFiLiPSampledBytesWarning(t *testing.T) {
	// 1 % sampling but the bytes clock counted barely what the records stand for alone.
	csv := filipHeader8 + "\n2000,24,100,A,0,0,m,1\n3000,24,1000,A,0,0,m,1\n"
	_, rep, err := ReadFrom(strings.NewReader(csv), "d.csv", strings.NewReader(`{"samplingRate":1,"profiler":"FiLiP"}`), Options{})
	require.NoError(t, err)
	assert.Empty(t, rep.Warnings)
	_, rep, err = ReadFrom(strings.NewReader(csv), "d.csv", strings.NewReader(`{"samplingRate":0.01,"profiler":"FiLiP"}`), Options{})
	require.NoError(t, err)
	require.Len(t, rep.Warnings, 1)
	assert.Contains(t, rep.Warnings[0], "the small records stand for 4800 bytes but the clock counted only 3000")
	// A sampled 10 MiB array is one object, not a hundred: the clock explains it.
	csv = filipHeader8 + "\n2000,24,100,A,0,0,m,1\n20002400,10485776,20000000,Array,0,0,m,1\n20003000,24,20002400,A,0,0,m,1\n"
	_, rep, err = ReadFrom(strings.NewReader(csv), "d.csv", strings.NewReader(`{"samplingRate":0.01,"profiler":"FiLiP"}`), Options{})
	require.NoError(t, err)
	assert.Empty(t, rep.Warnings)
}

func TestReadFiLiPHeaderVariants(t *testing.T) {
	rows := "\n200,24,100,A,0,0,m,1\n"
	for _, h := range []string{
		filipHeader8,
		strings.ReplaceAll(filipHeader8, `"`, ""),
		"\xef\xbb\xbf" + filipHeader8,
		strings.ToLower(filipHeader8),
		strings.ReplaceAll(filipHeader8, ",", ", "),
		"\n\r\n" + filipHeader8,
	} {
		_, rep, err := ReadFrom(strings.NewReader(h+rows), "d.csv", nil, Options{SamplingRate: 1})
		require.NoError(t, err, "header %q", h)
		assert.Equal(t, LayoutCurrent, rep.Layout)
	}
}

func TestReadFiLiPOddNumbers(t *testing.T) {
	// Forms the fast path declines and the checking parser accepts.
	csv := filipHeader8 + "\n" +
		"2e3,24.0,1.0e3,A,0,0,m,1\n" +
		" 3000 ,+24, 1500,A, 1 ,2.0,m,1\n" +
		"0004000,0024,2000.,A,,,m,\n"
	p, _, err := ReadFrom(strings.NewReader(csv), "d.csv", nil, Options{SamplingRate: 1, Clock: ClockBytes, NearEndFraction: -1})
	require.NoError(t, err)
	assert.Equal(t, []wantRec{{"A", 24, 24, 1024, false}, {"A", 24, 524, 2024, false}, {"A", 24, 1024, 3024, false}}, profileRecs(p))
}

func TestFiLiPParseClock(t *testing.T) {
	for s, want := range map[string]Clock{"auto": ClockAuto, "bytes": ClockBytes, "us": ClockMicros, " US ": ClockMicros} {
		c, err := ParseClock(s)
		require.NoError(t, err)
		assert.Equal(t, want, c)
	}
	_, err := ParseClock("ms")
	assert.EqualError(t, err, `filip: unknown clock "ms" (want auto, bytes or us)`)
	for _, c := range []Clock{ClockAuto, ClockBytes, ClockMicros} {
		back, err := ParseClock(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, back)
	}
	assert.Equal(t, "Clock(9)", Clock(9).String())
}

func TestFiLiPSortOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, tt := range []struct {
		n     int
		keyOf func() uint64
	}{
		{0, nil},
		{1, func() uint64 { return 5 }},
		{2, func() uint64 { return rng.Uint64N(2) }},
		{1000, func() uint64 { return rng.Uint64N(10) }},            // many ties
		{5000, func() uint64 { return 1<<40 + rng.Uint64N(1<<33) }}, // an offset, 33 bits of range
		{3000, func() uint64 { return rng.Uint64() }},               // too wide to pack
		{70000, func() uint64 { return rng.Uint64N(1 << 50) }},
	} {
		keys := make([]uint64, tt.n)
		for i := range keys {
			keys[i] = tt.keyOf()
		}
		want := make([]uint32, tt.n)
		for i := range want {
			want[i] = uint32(i)
		}
		slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
		got := sortOrder(keys)
		if got == nil {
			assert.True(t, slices.IsSorted(keys), "n=%d: nil order for unsorted keys", tt.n)
			continue
		}
		assert.Equal(t, want, got, "n=%d", tt.n)
	}
	assert.Nil(t, sortOrder([]uint64{1, 1, 2, 3}))
}

// TestReadFiLiPFastAndSlowRowsAgree reads a synthetic export with the fused fast row parser and
// with the checking parser alone: the profiles must be the same.
func TestReadFiLiPFastAndSlowRowsAgree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synthetic.csv")
	writeSyntheticFiLiP(t, path, 20000, 3)
	csv, err := os.ReadFile(path)
	require.NoError(t, err)
	meta, err := os.ReadFile(DefaultJSONPath(path))
	require.NoError(t, err)
	fast, fastRep, err := readFiLiP(filipSource{seq: bytes.NewReader(csv), size: -1}, path, bytes.NewReader(meta), "m.json", Options{}, filipTuning{})
	require.NoError(t, err)
	slow, slowRep, err := readFiLiP(filipSource{seq: bytes.NewReader(csv), size: -1}, path, bytes.NewReader(meta), "m.json", Options{}, filipTuning{slowRows: true})
	require.NoError(t, err)
	assert.Equal(t, slow, fast)
	assert.Equal(t, slowRep, fastRep)
	assert.Equal(t, ClockBytes, fastRep.Clock)
	assert.Equal(t, 20000, fast.Len())
}

// oneByteReader returns at most one byte per Read, to exercise lines split across reads.
type oneByteReader struct{ data []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, errors.New("EOF expected earlier")
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.data[0]
	r.data = r.data[1:]
	if len(r.data) == 0 {
		return 1, io.EOF
	}
	return 1, nil
}

func TestReadFiLiPSmallReads(t *testing.T) {
	csv, err := os.ReadFile("testdata/filip/era-v1.1.csv")
	require.NoError(t, err)
	meta, err := os.ReadFile("testdata/filip/era-v1.1.json")
	require.NoError(t, err)
	want, _, err := ReadFrom(bytes.NewReader(csv), "m.csv", bytes.NewReader(meta), Options{})
	require.NoError(t, err)
	got, _, err := ReadFrom(&oneByteReader{csv}, "m.csv", bytes.NewReader(meta), Options{})
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// A read error is reported with the file name.
	_, _, err = ReadFrom(&oneByteReader{}, "m.csv", nil, Options{SamplingRate: 1})
	assert.EqualError(t, err, "filip: m.csv: EOF expected earlier")
}

func ExampleReadFrom() {
	csv := `"finalizationTimeInMicroSeconds","sizeInBytes","initializationTimeInMicroSeconds","allocatedObjectClass","survivedScavenges","survivedFullGCs","textualAllocatorMethod","textualAllocatorMethodOffset"
4000,24,1024,ByteString,3,1,String class>>#new:,11
1500,16,1040,Fraction,0,0,Number>>#/,2
4000,40,2048,Array,1,0,Array class>>#new:,4
`
	meta := "{\n\t\"profiler\" : \"FiLiP\",\n\t\"samplingRate\" : 1,\n\t\"totalExecutionTime\" : 3000\n}"
	p, rep, err := ReadFrom(strings.NewReader(csv), "run.csv", strings.NewReader(meta), Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Era)
	fmt.Println(rep.Layout, rep.Clock, rep.Rows)
	for i := range p.Len() {
		fmt.Println(p.ClassName(i), p.SizeBytes[i], p.Birth[i], p.Death[i], p.AliveAtEnd(i))
	}
	fmt.Println("end", p.Meta.EndBytes)
	// Output:
	// FiLiP (9f1d62e, since 2025-08-04)
	// textualAllocatorMethod bytes 3
	// ByteString 24 24 3000 true
	// Fraction 16 40 500 false
	// Array 40 1048 3000 true
	// end 3000
}

// TestReadFiLiPParallel checks that reading a file in parallel chunks gives exactly what a
// sequential read gives: rows, class table, line numbers of bad rows, skipped rows.
func TestReadFiLiPParallel(t *testing.T) {
	synthetic := filepath.Join(t.TempDir(), "synthetic.csv")
	writeSyntheticFiLiP(t, synthetic, 30000, 5)
	for _, tt := range []struct {
		csv  string
		opts Options
	}{
		{synthetic, Options{}},
		{"testdata/filip/badrows.csv", Options{SkipBadRows: true}},
		{"testdata/filip/badrows.csv", Options{}},
		{"testdata/filip/era-v1.1.csv", Options{}},
		{"testdata/filip/era-330a870.csv", Options{}},
		{"testdata/filip/era-4ffe1bc.csv", Options{}},
		{"testdata/filip/crlf.csv", Options{}},
	} {
		csv, err := os.ReadFile(tt.csv)
		require.NoError(t, err)
		meta, _ := os.ReadFile(DefaultJSONPath(tt.csv))
		read := func(src filipSource, tune filipTuning) (*profile.Profile, *Report, error) {
			if meta == nil {
				return readFiLiP(src, tt.csv, nil, "m.json", tt.opts, tune)
			}
			return readFiLiP(src, tt.csv, bytes.NewReader(meta), "m.json", tt.opts, tune)
		}
		want, wantRep, wantErr := read(filipSource{seq: bytes.NewReader(csv), size: -1}, filipTuning{})
		for _, chunk := range []int64{1, 7, 100, 4096, 1 << 20} {
			for _, workers := range []int{1, 2, 3, 8} {
				name := fmt.Sprintf("%s chunk=%d workers=%d", tt.csv, chunk, workers)
				src := filipSource{seq: bytes.NewReader(csv), at: bytes.NewReader(csv), size: int64(len(csv))}
				got, gotRep, err := read(src, filipTuning{chunkBytes: chunk, workers: workers})
				if wantErr != nil {
					assert.EqualError(t, err, wantErr.Error(), name)
					continue
				}
				require.NoError(t, err, name)
				assert.Equal(t, want, got, name)
				assert.Equal(t, wantRep, gotRep, name)
			}
		}
	}
}

// TestReadFiLiPGivenRate: the rate given in the options stands for the metadata's when there is
// none or it does not say the rate, and agrees with it when it does.
func TestReadFiLiPGivenRate(t *testing.T) {
	csv := filipHeader8 + "\n2000,24,1000,A,0,0,m,1\n"
	for _, tt := range []struct {
		name    string
		meta    string // "-" = none
		warning string
	}{
		{"no metadata", "-", "no metadata (d.json): sampling rate 0.01 as given; run length and GC counts unknown"},
		{"metadata without the rate", `{"totalScavenges": 3, "totalFullGCs": 1}`, "d.json has no samplingRate: 0.01 as given"},
		{"metadata that agrees", `{"samplingRate": 0.01}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var meta io.Reader
			if tt.meta != "-" {
				meta = strings.NewReader(tt.meta)
			}
			p, rep, err := ReadFrom(strings.NewReader(csv), "d.csv", meta, Options{Clock: ClockBytes, SamplingRate: 0.01})
			require.NoError(t, err)
			assert.Equal(t, 0.01, p.Meta.SamplingRate)
			assert.Equal(t, uint32(100), p.Weight[0])
			if tt.warning == "" {
				assert.Empty(t, rep.Warnings)
			} else {
				require.NotEmpty(t, rep.Warnings)
				assert.Equal(t, tt.warning, rep.Warnings[0])
			}
		})
	}
	// A lonely CSV on disk is refused by Read too, wrapping ErrUnknownSamplingRate.
	_, _, err := Read("testdata/filip/nojson.csv", Options{})
	require.ErrorIs(t, err, ErrUnknownSamplingRate)
	assert.Contains(t, err.Error(), "testdata/filip/nojson.csv: sampling rate unknown: no metadata testdata/filip/nojson.json")
}
