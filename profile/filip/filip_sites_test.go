package filip

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// TestReadSitesEveryEra reads each era's fixture (written as that era's exporter writes its
// files: see docs/filip.md) and checks the sites kept, in file order of first appearance:
// the method, and the offset where the era writes one.
func TestReadSitesEveryEra(t *testing.T) {
	threeRows := func(withOffset bool) []string {
		if withOffset {
			return []string{"String class>>#new: @11", "SequenceableCollection>>#, @17", "Integer>>#/ @9"}
		}
		return []string{"String class>>#new:", "SequenceableCollection>>#,", "Integer>>#/"}
	}
	tests := []struct {
		csv   string
		sites []string // nil: the era writes no site
	}{
		{"era-filip.csv", []string{"NumberParser>>#makeFraction @23", "NumberParser class>>#on: @5", "String class>>#new: @11", "DataFrame>>#addRow: @17", "DataFrame>>#addRow: @40"}},
		{"era-v1.2.csv", threeRows(true)},
		{"era-d1a591b.csv", threeRows(true)},
		{"era-330a870.csv", threeRows(true)},
		{"era-c5c46f5.csv", threeRows(false)},
		{"era-395d06e.csv", threeRows(false)},
		{"era-5f26563.csv", threeRows(false)},
		{"era-4dcd239.csv", threeRows(false)},
		{"era-a2e61ff.csv", threeRows(false)},
		{"era-v1.1.csv", nil},
		{"era-v1.0.csv", nil},
		{"era-4ffe1bc.csv", nil},
	}
	for _, tc := range tests {
		t.Run(tc.csv, func(t *testing.T) {
			for _, slow := range []bool{false, true} {
				p, _, err := readFixtureTuned(t, tc.csv, filipTuning{slowRows: slow})
				require.NoError(t, err)
				if tc.sites == nil {
					assert.False(t, p.HasSites())
					assert.Equal(t, profile.UnknownSite, p.SiteName(0))
					continue
				}
				require.True(t, p.HasSites())
				assert.Equal(t, tc.sites, firstAppearance(p), "slow rows %v", slow)
			}
		})
	}
}

// readFixtureTuned reads a fixture from testdata/filip with its metadata.
func readFixtureTuned(t *testing.T, name string, tune filipTuning) (*profile.Profile, *Report, error) {
	t.Helper()
	path := "testdata/filip/" + name
	csv, err := os.ReadFile(path)
	require.NoError(t, err)
	meta, err := os.ReadFile(DefaultJSONPath(path))
	require.NoError(t, err)
	return readFiLiP(filipSource{seq: bytes.NewReader(csv), size: -1}, path, bytes.NewReader(meta), DefaultJSONPath(path), Options{}, tune)
}

// firstAppearance lists the sites of p's records in birth order of first appearance.
func firstAppearance(p *profile.Profile) []string {
	var out []string
	for i := range p.Len() {
		if n := p.SiteName(i); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// TestReadSitesCommas: a method whose selector holds commas (#, and #,,) keeps them, and the
// offset is taken from the right.
func TestReadSitesCommas(t *testing.T) {
	p, _, err := Read("testdata/filip/commas.csv", Options{SamplingRate: 1})
	require.NoError(t, err)
	assert.Subset(t, p.SiteNames, []string{"SequenceableCollection>>#, @12", "OrderedCollection>>#,, @7", "Number>>#@ @3", "Symbol>>#, @9"})
}

// TestReadSitesParallel: the parallel reader gives the sites a sequential read gives.
func TestReadSitesParallel(t *testing.T) {
	var b strings.Builder
	b.WriteString(filipHeader8 + "\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,24,%d,C%d,0,0,M%d>>#m%d,%d\n", 1000+i*100+50, 1000+i*100, i%7, i%13, i%5, i%3)
	}
	data := []byte(b.String())
	seq, _, err := readFiLiP(filipSource{seq: bytes.NewReader(data), size: -1}, "x.csv", nil, "x.json", Options{SamplingRate: 1}, filipTuning{})
	require.NoError(t, err)
	par, _, err := readFiLiP(filipSource{seq: bytes.NewReader(data), at: bytes.NewReader(data), size: int64(len(data))}, "x.csv", nil, "x.json",
		Options{SamplingRate: 1}, filipTuning{chunkBytes: 4096, workers: 4})
	require.NoError(t, err)
	require.Equal(t, seq.Len(), par.Len())
	for i := range seq.Len() {
		require.Equal(t, seq.SiteName(i), par.SiteName(i), "record %d", i)
	}
	assert.Len(t, seq.SiteNames, 13*5*3) // 13, 5 and 3 are coprime: every combination
}

// endlessDistinct streams a FiLiP CSV whose every row names a new class and a new site,
// without end: an input a profiler never writes.
type endlessDistinct struct {
	row  int
	buf  []byte
	head bool
}

func (e *endlessDistinct) Read(p []byte) (int, error) {
	if len(e.buf) == 0 {
		if !e.head {
			e.head = true
			e.buf = []byte(filipHeader8 + "\n")
		} else {
			for range 1000 {
				e.buf = strconv.AppendInt(e.buf, int64(2000+e.row*10), 10)
				e.buf = append(e.buf, ",24,"...)
				e.buf = strconv.AppendInt(e.buf, int64(1000+e.row*10), 10)
				e.buf = append(e.buf, ",C"...)
				e.buf = strconv.AppendInt(e.buf, int64(e.row), 36)
				e.buf = append(e.buf, ",0,0,C"...)
				e.buf = strconv.AppendInt(e.buf, int64(e.row), 36)
				e.buf = append(e.buf, ">>#m,7\n"...)
				e.row++
			}
		}
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// TestLongReadRefusesTooManyNames streams rows with a new class (and site) name each, with no end:
// the reader refuses the input with one line naming it once the class table reaches its bound,
// and the memory it allocated on the way is bounded by the bound, not by the input (a 10 M-
// class CSV once took 4.4 GB). Measured as the bytes allocated (runtime.MemStats.TotalAlloc),
// an upper bound on the peak heap; no timing.
func TestLongReadRefusesTooManyNames(t *testing.T) {
	if testing.Short() {
		t.Skip("streams a million rows")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	src := &endlessDistinct{}
	_, _, err := ReadFrom(src, "stream.csv", nil, Options{SamplingRate: 1})
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	assert.True(t, errors.Is(err, profile.ErrTooManyNames), "%v", err)
	assert.NotContains(t, err.Error(), "\n")
	assert.Contains(t, err.Error(), "stream.csv")
	assert.Contains(t, err.Error(), "class names")
	assert.GreaterOrEqual(t, src.row, profile.MaxClassNames, "refused only past the bound")
	// Two tables of 2^20 names of ~15 bytes and their maps, the raw columns of 2^20 rows and
	// their growth: well under 1 GiB; 10 M names would take several.
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(1<<30), "bytes allocated reading up to the bound")
}

// TestSampleKeepsSites: gctune sample writes each record's site as the exporter does (the
// method, then the offset, 0 when the profile has none), and reading the export back gives
// them.
func TestSampleKeepsSites(t *testing.T) {
	var b profile.Builder
	c := b.Class("A")
	m, n := b.Site("App>>#m"), b.Site("App>>#n @9")
	for k := range 200 {
		i := b.Add(c, 32, uint64(k)*32, uint64(k)*32+64, 1, 0)
		if k%2 == 0 {
			b.SetSite(i, m)
		} else {
			b.SetSite(i, n)
		}
	}
	p, err := b.Build(profile.Meta{Source: "s", EndBytes: 200*32 + 64})
	require.NoError(t, err)
	var csv, meta bytes.Buffer
	_, err = WriteSample(p, &csv, &meta, SampleOptions{Every: 3})
	require.NoError(t, err)
	assert.Contains(t, csv.String(), ",App>>#m,0\n")
	q, _, err := ReadFrom(&csv, "s.csv", &meta, Options{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"App>>#m @0", "App>>#n @9"}, q.SiteNames)
}
