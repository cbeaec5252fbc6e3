package filip

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/profiletest"
	"github.com/gctune/gctune/profile"
)

// sampledAndRebuilt samples p at 1/every (phase, default profiler overhead), reads the export
// back on the bytes clock and rebuilds it.
func sampledAndRebuilt(t testing.TB, p *profile.Profile, every, phase uint64, h Hypothesis) (*profile.Profile, *profile.Profile, *RebuildReport) {
	t.Helper()
	csv, meta, _ := writeSample(t, p, SampleOptions{Every: every, Phase: phase, OverheadBytes: DefaultSampleOverheadBytes})
	q, _, err := ReadFrom(strings.NewReader(csv), "s.csv", strings.NewReader(meta), Options{Clock: ClockBytes})
	if err != nil {
		t.Fatal(err)
	}
	r, rep, err := Rebuild(q, RebuildOptions{Hypothesis: h})
	if err != nil {
		t.Fatal(err)
	}
	if rep == nil {
		t.Fatal("no rebuild report for a sampled profile")
	}
	return q, r, rep
}

func TestRebuildRecoversLargeObjects(t *testing.T) {
	const n, every = 200_000, 100
	rng := rand.New(rand.NewPCG(5, 6))
	large := map[int]uint32{}
	var largeBytes uint64
	for len(large) < 40 {
		i := 1000 + rng.IntN(n-2000)
		s := uint32(1<<20+rng.IntN(19<<20)) &^ 7
		if _, dup := large[i]; !dup {
			large[i] = s
			largeBytes += uint64(s)
		}
	}
	p := profiletest.WithLarge(t, n, large, 7)
	q, r, rep := sampledAndRebuilt(t, p, every, 13, HypothesisAuto)

	// Multiplying counts a sampled large object 100 times and misses the others.
	if rep.InferredLarge+rep.SampledLarge < 38 || rep.InferredLarge+rep.SampledLarge > 42 {
		t.Errorf("%d inferred + %d sampled large objects, want 40 ± 2", rep.InferredLarge, rep.SampledLarge)
	}
	got := rep.InferredLargeBytes + rep.SampledLargeBytes
	if math.Abs(float64(got)/float64(largeBytes)-1) > 0.02 {
		t.Errorf("large bytes %d, want %d ± 2 %%", got, largeBytes)
	}
	if rep.ExplainedShare < 0.95 || rep.ExplainedShare > 1.05 {
		t.Errorf("explained share %.3f", rep.ExplainedShare)
	}
	// Every large object of the rebuilt profile weighs 1, and sits within a few windows (of
	// about 20 KB) of a true one: the rebuilt clock has no profiler bytes, it is the profile's
	// shifted by the reader's origin (the first sampled birth less its weighted size), and an
	// inferred object is placed at the middle of its window. Large objects are ~1 MB apart.
	var window float64 = 4 * every * 200
	var trueBirths []uint64
	for i := range p.Len() {
		if profile.AllocatesInOldSpace(p.SizeBytes[i], p.Flags[i]) {
			trueBirths = append(trueBirths, p.Birth[i]+uint64(p.SizeBytes[i]))
		}
	}
	var largeRecords int
	var weightedSmall float64
	for i := range r.Len() {
		if !profile.AllocatesInOldSpace(r.SizeBytes[i], r.Flags[i]) {
			weightedSmall += float64(r.Weight[i]) * float64(r.SizeBytes[i])
			continue
		}
		largeRecords++
		if r.Weight[i] != 1 {
			t.Errorf("large record %d weighs %d", i, r.Weight[i])
		}
		best := math.Inf(1)
		for _, b := range trueBirths {
			best = math.Min(best, math.Abs(float64(r.Birth[i])-float64(b)))
		}
		if best > window {
			t.Errorf("large record %d (%d bytes) born at %d: %.0f bytes from the nearest true large birth", i, r.SizeBytes[i], r.Birth[i], best)
		}
	}
	if largeRecords != rep.InferredLarge+rep.SampledLarge {
		t.Errorf("%d large records, report says %d + %d", largeRecords, rep.InferredLarge, rep.SampledLarge)
	}
	// The clock without the profiler's bytes is the profile's again.
	if d := math.Abs(float64(r.Meta.EndBytes) - float64(p.Meta.EndBytes)); d > float64(every*400) {
		t.Errorf("rebuilt end %d, profile's %d", r.Meta.EndBytes, p.Meta.EndBytes)
	}
	if q.Meta.EndBytes <= r.Meta.EndBytes {
		t.Errorf("export's clock %d should count the profiler's bytes over the rebuilt %d", q.Meta.EndBytes, r.Meta.EndBytes)
	}
	smallTrue := float64(p.Meta.EndBytes-1000) - float64(largeBytes)
	if math.Abs(weightedSmall/smallTrue-1) > 0.03 {
		t.Errorf("small bytes %.0f, want %.0f ± 3 %%", weightedSmall, smallTrue)
	}
}

func TestRebuildSampledLargeCountedOnce(t *testing.T) {
	// Large objects at positions ≡ 13 (mod 100): every one is sampled at phase 13.
	large := map[int]uint32{}
	var largeBytes uint64
	for k := 20; k < 60; k++ {
		large[k*100+13] = 4 << 20
		largeBytes += 4 << 20
	}
	p := profiletest.WithLarge(t, 20_000, large, 8)
	q, r, rep := sampledAndRebuilt(t, p, 100, 13, HypothesisAuto)
	if rep.SampledLarge != 40 || rep.InferredLarge != 0 {
		t.Errorf("%d sampled, %d inferred large objects; want 40 sampled, 0 inferred", rep.SampledLarge, rep.InferredLarge)
	}
	var multiplied, rebuilt float64
	for i := range q.Len() {
		if profile.AllocatesInOldSpace(q.SizeBytes[i], q.Flags[i]) {
			multiplied += float64(q.Weight[i]) * float64(q.SizeBytes[i])
		}
	}
	for i := range r.Len() {
		if profile.AllocatesInOldSpace(r.SizeBytes[i], r.Flags[i]) {
			rebuilt += float64(r.Weight[i]) * float64(r.SizeBytes[i])
		}
	}
	if rebuilt != float64(largeBytes) || multiplied != 100*float64(largeBytes) {
		t.Errorf("large bytes: rebuilt %.0f, multiplied %.0f; want %d and 100 times that", rebuilt, multiplied, largeBytes)
	}
}

func TestRebuildHypotheses(t *testing.T) {
	large := map[int]uint32{5013: 8 << 20, 9050: 6 << 20}
	p := profiletest.WithLarge(t, 20_000, large, 9)
	lifeOfInferred := func(h Hypothesis) (alive bool, life uint64) {
		_, r, rep := sampledAndRebuilt(t, p, 100, 0, h)
		if rep.InferredLarge != 2 {
			t.Fatalf("%s: %d inferred", h, rep.InferredLarge)
		}
		for i := range r.Len() {
			if r.ClassName(i) == "(large, inferred from the clock)" {
				return r.AliveAtEnd(i), r.Death[i] - r.Birth[i]
			}
		}
		t.Fatal("no inferred record")
		return
	}
	if alive, life := lifeOfInferred(HypothesisShort); alive || life > 100*400 {
		t.Errorf("short: alive %v, lifetime %d", alive, life)
	}
	if alive, _ := lifeOfInferred(HypothesisLong); !alive {
		t.Error("long: not alive at the end")
	}
	if _, _, rep := sampledAndRebuilt(t, p, 100, 0, HypothesisAuto); !strings.HasPrefix(rep.Hypothesis, "short") {
		t.Errorf("auto with no sampled large object: %q", rep.Hypothesis)
	}
}

// storedTestProfile has small objects of which every seventh lives to the end, and large ones
// (living to the end) at the given positions; profiletest.Dense gives position i the class
// Array, ByteString or "Foo class" by i mod 3.
func storedTestProfile(t testing.TB, large map[int]uint32) *profile.Profile {
	rng := rand.New(rand.NewPCG(11, 12))
	return profiletest.Dense(t, 20_000, func(i int) uint32 {
		if s, ok := large[i]; ok {
			return s
		}
		return 16 + 8*uint32(rng.IntN(48))
	}, func(i int) int64 {
		if _, ok := large[i]; ok || i%7 == 0 {
			return -1
		}
		return int64(rng.IntN(1 << 16))
	})
}

func TestRebuildStoredAssumesContainers(t *testing.T) {
	// Two unsampled large objects (positions not ≡ 0 mod 100): two containers, inferred, the
	// first (8 MiB) larger than the second (6 MiB).
	p := storedTestProfile(t, map[int]uint32{5013: 8 << 20, 9050: 6 << 20})
	_, r, rep := sampledAndRebuilt(t, p, 100, 0, HypothesisStored)
	if rep.Hypothesis != "stored" || rep.InferredLarge != 2 || rep.Containers != 2 || len(r.Containers) != 2 {
		t.Fatalf("hypothesis %q, %d inferred, %d containers (report %d)", rep.Hypothesis, rep.InferredLarge, len(r.Containers), rep.Containers)
	}
	first, second := r.Birth[r.Containers[0].Record], r.Birth[r.Containers[1].Record]
	var want, wantObjects float64
	for i := range r.Len() {
		st, from, until, ok := r.StoreWindow(i)
		small := !profile.AllocatesInOldSpace(r.SizeBytes[i], r.Flags[i])
		shouldStore := small && r.AliveAtEnd(i)
		if ok != shouldStore {
			t.Fatalf("record %d (born %d, alive at end %v, small %v): stored %v", i, r.Birth[i], r.AliveAtEnd(i), small, ok)
		}
		if !ok {
			continue
		}
		want++
		wantObjects += float64(r.Weight[i])
		// Into the larger of the newest container before it and the largest after it: the
		// first container, from its own birth if born after it, else from the container's
		// birth (a table built from the objects made before it); the records born after the
		// second, smaller one have only it, from their birth.
		c, wantC := r.Stores[st].Container, int32(0)
		wantFrom := max(r.Birth[i], first)
		if r.Birth[i] >= second {
			wantC, wantFrom = 1, r.Birth[i]
		}
		if c != wantC || from != wantFrom || until != r.Death[i] {
			t.Fatalf("record %d born %d stored into container %d for [%d, %d); want container %d from %d (containers born %d, %d)", i, r.Birth[i], c, from, until, wantC, wantFrom, first, second)
		}
	}
	if want == 0 || float64(rep.StoredRecords) != want || rep.StoredObjects != wantObjects {
		t.Errorf("report: %d records, %.0f objects stored; counted %.0f, %.0f", rep.StoredRecords, rep.StoredObjects, want, wantObjects)
	}
	if !strings.Contains(rep.String(), "assumed stored into 2 large containers") {
		t.Errorf("report line %q", rep)
	}
	// A larger container later takes the records born before it; those born after it stay
	// with it (the newest before them).
	p = storedTestProfile(t, map[int]uint32{5013: 6 << 20, 9050: 8 << 20})
	_, r, _ = sampledAndRebuilt(t, p, 100, 0, HypothesisStored)
	second = r.Birth[r.Containers[1].Record]
	for i := range r.Len() {
		st, from, _, ok := r.StoreWindow(i)
		if !ok {
			continue
		}
		if c := r.Stores[st].Container; c != 1 || from != max(r.Birth[i], second) {
			t.Fatalf("later larger container: record %d born %d stored into container %d from %d, want 1 from %d", i, r.Birth[i], c, from, max(r.Birth[i], second))
		}
	}
	// The lifetimes are HypothesisLong's, and long assumes no pointers.
	_, l, lrep := sampledAndRebuilt(t, p, 100, 0, HypothesisLong)
	if l.Len() != r.Len() || lrep.Containers != 0 || l.StoredIn != nil || len(l.Containers) != 0 {
		t.Fatalf("long: %d records (stored: %d), %d containers, stores %v", l.Len(), r.Len(), len(l.Containers), l.StoredIn != nil)
	}
	for i := range l.Len() {
		if l.Death[i] != r.Death[i] || l.Flags[i]&^profile.FlagContainer != r.Flags[i]&^profile.FlagContainer {
			t.Fatalf("record %d: long and stored differ in lifetime", i)
		}
	}
}

func TestRebuildStoredTrustsSampledByteObjects(t *testing.T) {
	// Every sampled large object (positions ≡ 13 mod 100, sampled at phase 13) is a
	// ByteString (position ≡ 1 mod 3): the program's large objects hold no pointers, and the
	// unsampled one (5050) is taken for pointer-free too.
	large := map[int]uint32{5050: 3 << 20}
	for k := 10; k < 16; k++ {
		large[k*300+13] = 2 << 20
	}
	p := storedTestProfile(t, large)
	_, r, rep := sampledAndRebuilt(t, p, 100, 13, HypothesisStored)
	if rep.SampledLarge != 6 || rep.InferredLarge != 1 || rep.Containers != 0 || r.StoredIn != nil {
		t.Fatalf("%d sampled, %d inferred large, %d containers", rep.SampledLarge, rep.InferredLarge, rep.Containers)
	}
	// One sampled Array (position ≡ 0 mod 3) among them: every large object may hold pointers.
	large[5313] = 2 << 20
	p = storedTestProfile(t, large)
	_, r, rep = sampledAndRebuilt(t, p, 100, 13, HypothesisStored)
	if rep.Containers != 2 || len(r.Containers) != 2 || r.ClassName(int(r.Containers[0].Record)) != "(large, inferred from the clock)" || r.ClassName(int(r.Containers[1].Record)) != "Array" {
		t.Fatalf("%d containers (report %d)", len(r.Containers), rep.Containers)
	}
}

func TestRebuildDeterministicAndNoOps(t *testing.T) {
	large := map[int]uint32{3000: 2 << 20, 7000: 9 << 20}
	p := profiletest.WithLarge(t, 20_000, large, 10)
	_, a, _ := sampledAndRebuilt(t, p, 100, 3, HypothesisAuto)
	_, b, _ := sampledAndRebuilt(t, p, 100, 3, HypothesisAuto)
	if a.Len() != b.Len() {
		t.Fatal("two rebuilds differ")
	}
	for i := range a.Len() {
		if a.Birth[i] != b.Birth[i] || a.Death[i] != b.Death[i] || a.SizeBytes[i] != b.SizeBytes[i] || a.Weight[i] != b.Weight[i] {
			t.Fatalf("record %d differs", i)
		}
	}
	if q, rep, err := Rebuild(p, RebuildOptions{}); q != p || rep != nil || err != nil {
		t.Error("a full profile (rate 1) is rebuilt")
	}
	csv, meta, _ := writeSample(t, p, SampleOptions{Every: 100})
	q, _, err := ReadFrom(strings.NewReader(csv), "s.csv", strings.NewReader(meta), Options{Clock: ClockBytes})
	if err != nil {
		t.Fatal(err)
	}
	if r, rep, _ := Rebuild(q, RebuildOptions{Hypothesis: HypothesisOff}); r != q || rep != nil {
		t.Error("HypothesisOff rebuilt")
	}
	for _, s := range []string{"auto", "short", "long", "stored", "off"} {
		if h, err := ParseHypothesis(s); err != nil || h.String() != s {
			t.Errorf("ParseHypothesis(%q) = %v, %v", s, h, err)
		}
	}
	if _, err := ParseHypothesis("sometimes"); err == nil {
		t.Error("ParseHypothesis accepted sometimes")
	}
}

func TestRebuildKeepsContainers(t *testing.T) {
	var b profile.Builder
	small, big := b.Class("Small"), b.Class("Rows")
	var clock uint64
	var container int
	for i := range 400 {
		clock += 100 * 64
		if i == 200 {
			clock += 8 << 20 // an unsampled large object before the container
		}
		cls, size := small, uint32(64)
		if i == 300 {
			cls, size = big, 4096
		}
		idx := b.Add(cls, size, clock, clock+1000, 100, 0)
		if i == 300 {
			container = idx
		}
	}
	b.AddContainer(profile.Container{Record: int32(container), StoresFromBytes: clock - 50*6400, StoresUntilBytes: clock})
	p, err := b.Build(profile.Meta{EndBytes: clock + 5000, SamplingRate: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	r, rep, err := Rebuild(p, RebuildOptions{ProfilerBytesPerSample: -1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.InferredLarge != 1 || len(r.Containers) != 1 {
		t.Fatalf("%d inferred, %d containers", rep.InferredLarge, len(r.Containers))
	}
	c := r.Containers[0]
	if r.ClassName(int(c.Record)) != "Rows" || c.StoresFromBytes < r.Birth[c.Record] || c.StoresUntilBytes > r.Meta.EndBytes {
		t.Errorf("container %+v names %s born %d", c, r.ClassName(int(c.Record)), r.Birth[c.Record])
	}
}

func TestHypothesisAndClockNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Hypothesis
	}{{"", HypothesisAuto}, {" Stored ", HypothesisStored}, {"no", HypothesisOff}, {"false", HypothesisOff}} {
		if h, err := ParseHypothesis(tc.in); err != nil || h != tc.want {
			t.Errorf("ParseHypothesis(%q) = %v, %v", tc.in, h, err)
		}
	}
	if _, err := ParseHypothesis("sometimes"); err == nil || err.Error() != `filip: unknown rebuild mode "sometimes" (want auto, short, long, off or stored)` {
		t.Errorf("ParseHypothesis(sometimes): %v", err)
	}
	if got := Hypothesis(9).String(); got != "Hypothesis(9)" {
		t.Errorf("Hypothesis(9) = %q", got)
	}
	if c, err := ParseClock(" BYTES"); err != nil || c != ClockBytes || c.String() != "bytes" || Clock(-1).String() != "Clock(-1)" {
		t.Errorf("ParseClock(BYTES) = %v, %v", c, err)
	}
}

func TestRebuildSplitsWholeMultiplesOfTheSampledSize(t *testing.T) {
	// One sampled 10 MiB array (position 5013, sampled at phase 13); three unsampled ones made
	// one after another (9050-9052, one window): the window's excess is three times the
	// sampled size, so three objects, as a DataFrame's column arrays. A 17 MiB array alone in
	// its window (15050) is no whole multiple of 10 MiB: one object.
	const ten = 10 << 20
	large := map[int]uint32{5013: ten, 9050: ten, 9051: ten, 9052: ten, 15050: 17 << 20}
	p := profiletest.WithLarge(t, 20_000, large, 3)
	_, r, rep := sampledAndRebuilt(t, p, 100, 13, HypothesisAuto)
	if rep.SampledLarge != 1 || rep.InferredWindows != 2 || rep.InferredLarge != 4 {
		t.Fatalf("%d sampled, %d inferred in %d windows; want 1, 4 in 2: %s", rep.SampledLarge, rep.InferredLarge, rep.InferredWindows, rep)
	}
	if !strings.HasPrefix(rep.Sizes, "neighbour") {
		t.Errorf("sizes %q", rep.Sizes)
	}
	var sizes []uint32
	for i := range r.Len() {
		if r.ClassName(i) == "(large, inferred from the clock)" {
			sizes = append(sizes, r.SizeBytes[i])
		}
	}
	for k, s := range sizes {
		want := float64(ten)
		if k == 3 {
			want = 17 << 20
		}
		if math.Abs(float64(s)/want-1) > 0.01 {
			t.Errorf("inferred object %d: %d bytes, want %.0f ± 1 %%", k, s, want)
		}
	}
	// With no large object sampled (phase 0) there is no size to go by: one per window.
	_, _, rep = sampledAndRebuilt(t, p, 100, 0, HypothesisAuto)
	if rep.SampledLarge != 0 || rep.InferredLarge != rep.InferredWindows || !strings.HasPrefix(rep.Sizes, "one object per window") {
		t.Errorf("no sampled large: %d inferred in %d windows, sizes %q", rep.InferredLarge, rep.InferredWindows, rep.Sizes)
	}
}

// TestRebuildFindsABurstOfLargeObjects: large objects allocated closer together than two
// sampling windows (a burst, as the type detection's column arrays on dataframe-3.1gb) fill
// most windows of a block; the baseline is taken from the windows that cannot hold one, so
// every one of them is still found.
func TestRebuildFindsABurstOfLargeObjects(t *testing.T) {
	const n, every, burst = 200_000, 100, 60
	large := map[int]uint32{}
	var largeBytes uint64
	for k := range burst {
		s := uint32(10<<20) + uint32(k)*8
		large[50_000+150*k] = s
		largeBytes += uint64(s)
	}
	p := profiletest.WithLarge(t, n, large, 7)
	_, _, rep := sampledAndRebuilt(t, p, every, 13, HypothesisAuto)
	if got := rep.InferredLarge + rep.SampledLarge; got < burst-2 || got > burst+2 {
		t.Errorf("%d inferred + %d sampled large objects, want %d ± 2", rep.InferredLarge, rep.SampledLarge, burst)
	}
	if got := rep.InferredLargeBytes + rep.SampledLargeBytes; math.Abs(float64(got)/float64(largeBytes)-1) > 0.03 {
		t.Errorf("large bytes %d, want %d ± 3 %%", got, largeBytes)
	}
}
