package filip

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/profiletest"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/spec"
)

func writeSample(t testing.TB, p *profile.Profile, opts SampleOptions) (string, string, SampleReport) {
	t.Helper()
	var c, m bytes.Buffer
	rep, err := WriteSample(p, &c, &m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c.String(), m.String(), rep
}

func TestWriteFiLiPSampleRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := profiletest.Dense(t, 500, func(i int) uint32 { return 16 + 8*uint32(rng.IntN(40)) }, func(i int) int64 {
		if i%10 == 0 {
			return -1
		}
		return int64(rng.IntN(20000))
	})
	csv, meta, rep := writeSample(t, p, SampleOptions{Every: 1, StartBytes: 7_000_000})
	if rep.Rows != 500 || rep.Allocations != 500 || rep.StartBytes != 7_000_000 || rep.EndBytes != 7_000_000+p.Meta.EndBytes {
		t.Fatalf("report %+v", rep)
	}
	lines := strings.Split(csv, "\n")
	if lines[0] != filipCurrentHeader {
		t.Errorf("header %q", lines[0])
	}
	for _, want := range []string{"{\n\t\"totalExecutionTime\" : ", "\n\t\"samplingRate\" : 1,", "\n\t\"profiler\" : \"FiLiP\"", "\"averageLifetimes\" : "} {
		if !strings.Contains(meta, want) {
			t.Errorf("metadata lacks %q:\n%s", want, meta)
		}
	}
	q, r, err := ReadFrom(strings.NewReader(csv), "rt.csv", strings.NewReader(meta), Options{Clock: ClockBytes})
	if err != nil {
		t.Fatal(err)
	}
	if r.Layout != LayoutCurrent || q.Len() != p.Len() || q.Meta.EndBytes != p.Meta.EndBytes {
		t.Fatalf("read back %s, %d records, end %d; want %d records, end %d", r.Layout, q.Len(), q.Meta.EndBytes, p.Len(), p.Meta.EndBytes)
	}
	for i := range p.Len() {
		// FiLiP reads parameter 34 after the allocation: a birth is the profile's plus the size.
		wantBirth := p.Birth[i] + uint64(p.SizeBytes[i])
		if q.ClassName(i) != p.ClassName(i) || q.SizeBytes[i] != p.SizeBytes[i] || q.Birth[i] != wantBirth ||
			q.AliveAtEnd(i) != p.AliveAtEnd(i) || q.Weight[i] != 1 {
			t.Fatalf("record %d: got %s %d born %d alive %v, want %s %d born %d alive %v", i,
				q.ClassName(i), q.SizeBytes[i], q.Birth[i], q.AliveAtEnd(i), p.ClassName(i), p.SizeBytes[i], wantBirth, p.AliveAtEnd(i))
		}
		if !p.AliveAtEnd(i) && q.Death[i] != max(p.Death[i], wantBirth) {
			t.Fatalf("record %d dies at %d, want %d", i, q.Death[i], max(p.Death[i], wantBirth))
		}
	}
}

func TestWriteFiLiPSampleCounterPhase(t *testing.T) {
	// Sizes encode the record: 16 + 8i.
	p := profiletest.Dense(t, 1000, func(i int) uint32 { return 16 + 8*uint32(i) }, func(int) int64 { return 10 })
	for _, phase := range []uint64{0, 3, 6} {
		csv, meta, rep := writeSample(t, p, SampleOptions{Every: 7, Phase: phase, OverheadBytes: 1064})
		rows := strings.Split(strings.TrimSpace(csv), "\n")[1:]
		want := (1000 - int(phase) + 6) / 7
		if len(rows) != want || rep.Rows != uint64(want) {
			t.Fatalf("phase %d: %d rows, want %d", phase, len(rows), want)
		}
		for k, row := range rows {
			f := strings.Split(row, ",")
			if want := uint64(16 + 8*(int(phase)+7*k)); f[1] != uintString(want) {
				t.Fatalf("phase %d row %d: size %s, want %d (allocation %d)", phase, k, f[1], want, int(phase)+7*k)
			}
		}
		if !strings.Contains(meta, "\"samplingRate\" : 0.14285714285714285,") {
			t.Errorf("metadata: %s", meta)
		}
	}
	if _, err := WriteSample(p, &bytes.Buffer{}, &bytes.Buffer{}, SampleOptions{Every: 7, Phase: 7}); !errors.Is(err, ErrBadSample) {
		t.Errorf("phase 7 of 1/7: %v", err)
	}
}

func uintString(v uint64) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + v%10)}, b...)
		if v /= 10; v == 0 {
			return string(b)
		}
	}
}

func TestWriteFiLiPSampleWeightedDeterministic(t *testing.T) {
	sp, err := spec.BundledSpec("image-processing")
	if err != nil {
		t.Fatal(err)
	}
	p, err := sp.Generate(spec.GenerateOptions{Seed: 1, Resolution: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	a, am, rep := writeSample(t, p, SampleOptions{Every: 100, Phase: 5, Seed: 9, OverheadBytes: 1064})
	b, bm, _ := writeSample(t, p, SampleOptions{Every: 100, Phase: 5, Seed: 9, OverheadBytes: 1064})
	c, _, _ := writeSample(t, p, SampleOptions{Every: 100, Phase: 5, Seed: 10, OverheadBytes: 1064})
	if a != b || am != bm {
		t.Error("same seed, different exports")
	}
	if a == c {
		t.Error("seeds 9 and 10 gave the same export")
	}
	if want := uint64(p.Objects()); rep.Allocations != want {
		t.Errorf("%d allocations counted, the profile stands for %d", rep.Allocations, want)
	}
	if want := (rep.Allocations - 5 + 99) / 100; rep.Rows != want {
		t.Errorf("%d rows, want %d", rep.Rows, want)
	}
}

func TestPharoFloat(t *testing.T) {
	for f, want := range map[float64]string{0.01: "0.01", 0.001: "0.001", 12: "12.0", 1e16: "1.0e16", 1.5e-5: "1.5e-5", 503356673.18395257: "503356673.18395257"} {
		if got := pharoFloat(f); got != want {
			t.Errorf("pharoFloat(%v) = %q, want %q", f, got, want)
		}
	}
}
