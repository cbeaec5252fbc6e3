package lifetimes

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzReadFiLiP feeds arbitrary CSV and metadata to ReadFiLiPFrom. Whatever the input, the
// reader must not panic and must return either an error or a Profile that validates, whose alive
// records die at the end, and whose report counts its rows. The fused fast row parser and the
// checking parser must also agree on every input.
//
// Run it with: go test ./lifetimes -run '^$' -fuzz FuzzReadFiLiP -fuzztime 3m
// Interesting inputs it found are kept in testdata/fuzz/FuzzReadFiLiP.
func FuzzReadFiLiP(f *testing.F) {
	csvs, err := filepath.Glob(filepath.Join("testdata", "filip", "*.csv"))
	if err != nil {
		f.Fatal(err)
	}
	for i, path := range csvs {
		csv, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		meta, _ := os.ReadFile(defaultFiLiPJSONPath(path)) // none: nil
		f.Add(csv, meta, uint8(i%3), i%2 == 0)
	}
	f.Add([]byte(filipHeader8+"\n3912345678901234,24,3912345678900000,A,0,0,m,1\n"), []byte(`{"samplingRate":0.01}`), uint8(0), false)
	f.Add([]byte(filipHeader8+"\n1e3,24.0, 10 ,A,+1,,m,\r\n"), []byte(`{"profiler":"Illimani v1.1","totalExecutionTime":5}`), uint8(0), true)

	f.Fuzz(func(t *testing.T, csv, meta []byte, clock uint8, skipBad bool) {
		opts := FiLiPOptions{Clock: Clock(clock % 3), SkipBadRows: skipBad}
		metaReader := func() *bytes.Reader {
			if len(meta) == 0 {
				return nil
			}
			return bytes.NewReader(meta)
		}
		read := func(src filipSource, tune filipTuning) (*Profile, *FiLiPReport, error) {
			if m := metaReader(); m != nil {
				return readFiLiP(src, "fuzz.csv", m, "fuzz.json", opts, tune)
			}
			return readFiLiP(src, "fuzz.csv", nil, "fuzz.json", opts, tune)
		}
		sequential := func() filipSource { return filipSource{seq: bytes.NewReader(csv), size: int64(len(csv))} }
		p, rep, err := read(sequential(), filipTuning{})
		if err != nil {
			if p != nil || rep != nil {
				t.Fatalf("error %v with a profile or a report", err)
			}
			if !strings.HasPrefix(err.Error(), "lifetimes: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
		} else {
			if err := p.Validate(); err != nil {
				t.Fatalf("profile does not validate: %v", err)
			}
			if rep.Rows != p.Len() || rep.Rows == 0 {
				t.Fatalf("report says %d rows, profile has %d", rep.Rows, p.Len())
			}
			if rep.Clock == ClockAuto {
				t.Fatal("report's clock is auto")
			}
			for i := range p.Len() {
				if p.AliveAtEnd(i) && p.Death[i] != p.Meta.EndBytes {
					t.Fatalf("record %d is alive at the end but dies at %d, end %d", i, p.Death[i], p.Meta.EndBytes)
				}
			}
		}
		// The checking parser alone, and a parallel read in chunks of a few lines, must agree.
		for _, alt := range []struct {
			name string
			src  filipSource
			tune filipTuning
		}{
			{"checking parser", sequential(), filipTuning{slowRows: true}},
			{"parallel", filipSource{seq: bytes.NewReader(csv), at: bytes.NewReader(csv), size: int64(len(csv))},
				filipTuning{chunkBytes: int64(1 + len(csv)/5), workers: 4}},
		} {
			p2, rep2, err2 := read(alt.src, alt.tune)
			switch {
			case (err == nil) != (err2 == nil):
				t.Fatalf("sequential: %v; %s: %v", err, alt.name, err2)
			case err != nil && err.Error() != err2.Error():
				t.Fatalf("sequential: %v; %s: %v", err, alt.name, err2)
			case err == nil && !profilesEqual(p, p2):
				t.Fatalf("sequential and %s reads built different profiles", alt.name)
			case err == nil && !reportsEqual(rep, rep2):
				t.Fatalf("reports differ: sequential %+v, %s %+v", rep, alt.name, rep2)
			}
		}
	})
}

func profilesEqual(a, b *Profile) bool {
	return a.Meta == b.Meta && slices.Equal(a.ClassNames, b.ClassNames) && slices.Equal(a.Class, b.Class) &&
		slices.Equal(a.SizeBytes, b.SizeBytes) && slices.Equal(a.Birth, b.Birth) && slices.Equal(a.Death, b.Death) &&
		slices.Equal(a.Weight, b.Weight) && slices.Equal(a.Flags, b.Flags) && slices.Equal(a.Containers, b.Containers)
}

func reportsEqual(a, b *FiLiPReport) bool {
	return a.Layout == b.Layout && a.Clock == b.Clock && a.ClockReason == b.ClockReason && a.Rows == b.Rows &&
		a.SkippedRows == b.SkippedRows && slices.Equal(a.FirstSkipped, b.FirstSkipped) && slices.Equal(a.Warnings, b.Warnings)
}
