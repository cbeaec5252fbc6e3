package filip

import (
	"bufio"
	"cmp"
	"fmt"
	"github.com/gctune/gctune/internal/profiletest"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// syntheticFiLiPRow is one row of a synthetic export.
type syntheticFiLiPRow struct {
	birth, death uint64 // death 0: never finalized
	size         uint32
	class, site  int
}

// writeSyntheticFiLiP writes a deterministic FiLiP export of rows records at path and its
// metadata next to it, as the current exporter writes them (FiLiPExporter: quoted header, raw
// rows, `Foo>>#bar` method names, bytes clock, 1/100 sampling, pretty JSON). It looks like the
// DataFrame case: most objects die young, about 15 % live to the end (force-finalized when
// profiling stops, at or just before the last timestamp), and rows come in death order.
func writeSyntheticFiLiP(tb testing.TB, path string, rows int, seed uint64) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	classes := []string{"Fraction", "NumberParser", "ReadStream", "ByteString", "Array", "OrderedCollection",
		"Dictionary", "Association", "WideString", "LargePositiveInteger", "Point", "Interval"}
	sites := []string{"NumberParser>>#makeFraction", "NumberParser class>>#on:", "String class>>#new:",
		"SequenceableCollection>>#,", "DataFrame>>#addRow:", "OrderedCollection>>#,,", "Array class>>#new:withAll:"}
	const weight = 100
	recs := make([]syntheticFiLiPRow, rows)
	clock := uint64(1 << 20) // bytes allocated before the profiled run started (an absolute reading)
	for i := range recs {
		size := uint32(16 + 8*rng.IntN(8))
		if rng.IntN(50) == 0 {
			size = uint32(1024 + rng.IntN(1<<16))
		}
		clock += uint64(size) * weight * uint64(1+rng.IntN(2))
		recs[i] = syntheticFiLiPRow{birth: clock, size: size, class: rng.IntN(len(classes)), site: rng.IntN(len(sites))}
	}
	end := clock + 1000
	for i := range recs {
		switch r := rng.IntN(100); {
		case r < 85:
			recs[i].death = min(recs[i].birth+uint64(rng.ExpFloat64()*4e5), end-1)
		case r < 95:
			recs[i].death = end // force-finalized at the end
		default:
			recs[i].death = end - uint64(rng.IntN(100)) // force-finalized as profiling stops
		}
	}
	slices.SortStableFunc(recs, func(a, b syntheticFiLiPRow) int {
		da, db := a.death, b.death
		if da == 0 {
			da = end + 1
		}
		if db == 0 {
			db = end + 1
		}
		return cmp.Compare(da, db)
	})
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, `"finalizationTimeInMicroSeconds","sizeInBytes","initializationTimeInMicroSeconds","allocatedObjectClass","survivedScavenges","survivedFullGCs","textualAllocatorMethod","textualAllocatorMethodOffset"`)
	var line []byte
	for _, r := range recs {
		line = line[:0]
		if r.death != 0 {
			line = strconv.AppendUint(line, r.death, 10)
		}
		line = append(line, ',')
		line = strconv.AppendUint(line, uint64(r.size), 10)
		line = append(line, ',')
		line = strconv.AppendUint(line, r.birth, 10)
		line = append(line, ',')
		line = append(line, classes[r.class]...)
		line = append(line, ',')
		if r.death != 0 {
			line = strconv.AppendUint(line, (r.death-r.birth)>>22, 10)
			line = append(line, ",0"...)
		} else {
			line = append(line, ',')
		}
		line = append(line, ',')
		line = append(line, sites[r.site]...)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(r.site*7+3), 10)
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	meta := fmt.Sprintf("{\n\t\"totalScavenges\" : 266,\n\t\"profiler\" : \"FiLiP\",\n\t\"samplingRate\" : 0.01,\n\t\"totalExecutionTime\" : %d,\n\t\"profiledCode\" : \"[ DataFrame readFromCsv: 'big.csv' ]\",\n\t\"totalFullGCs\" : 18\n}", end-(1<<20))
	if err := os.WriteFile(DefaultJSONPath(path), []byte(meta), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkReadFiLiP measures a whole import (read, parse, clock, sort by birth, build and
// validate) of synthetic exports; rows/s is the figure to watch (the target is ≥ 5 M rows/s).
func BenchmarkReadFiLiP(b *testing.B) {
	dir := b.TempDir()
	for _, rows := range []int{10_000, 100_000, 1_000_000} {
		path := filepath.Join(dir, fmt.Sprintf("synthetic-%d.csv", rows))
		writeSyntheticFiLiP(b, path, rows, 1)
		profiletest.BenchRead(b, fmt.Sprintf("rows=%d", rows), path, rows, "rows", func() (int, error) {
			p, _, err := Read(path, Options{})
			if err != nil {
				return 0, err
			}
			return p.Len(), nil
		})
	}
}
