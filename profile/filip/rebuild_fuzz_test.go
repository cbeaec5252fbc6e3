package filip

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/gctune/gctune/profile"
)

// fuzzSampledProfile turns data into a sampled profile on the bytes clock: byte 0 picks N, then
// each 8 bytes are a record: the gap since the previous birth (scaled up by the flag bits so
// that some windows hold large excesses), the size (small, or over the new-space limit), the
// lifetime and whether it is alive at the end.
func fuzzSampledProfile(data []byte) *profile.Profile {
	if len(data) < 9 {
		return nil
	}
	every := uint32(data[0])*4 + 2
	data = data[1:]
	var b profile.Builder
	cls := b.Class("C")
	var clock uint64
	type rec struct {
		birth, life uint64
		size        uint32
		alive       bool
	}
	var recs []rec
	for len(data) >= 8 {
		gap := uint64(binary.LittleEndian.Uint16(data[0:]))
		flags := data[7]
		if flags&1 != 0 {
			gap <<= 8 // up to 16 MiB: a large object's excess
		}
		size := uint32(binary.LittleEndian.Uint16(data[2:]))&^7 + 16
		if flags&2 != 0 {
			size = uint32(largeMinBytes) + uint32(binary.LittleEndian.Uint16(data[2:]))<<6
		}
		life := uint64(binary.LittleEndian.Uint16(data[4:])) << (data[6] % 24)
		clock += gap + uint64(size)
		recs = append(recs, rec{birth: clock, life: life, size: size, alive: flags&4 != 0})
		data = data[8:]
	}
	end := clock + uint64(every)*64
	for _, r := range recs {
		death, f := min(r.birth+r.life, end), uint8(0)
		if r.alive {
			death, f = end, profile.FlagAliveAtEnd
		}
		b.Add(cls, r.size, r.birth, death, every, f)
	}
	p, err := b.Build(profile.Meta{Source: "fuzz", EndBytes: end, SamplingRate: 1 / float64(every)})
	if err != nil {
		return nil
	}
	return p
}

// FuzzRebuild checks that Rebuild returns a valid profile for any sampled profile: every input
// record kept, small ones with their weight, large ones weighing 1, inferred ones added, all
// inside the rebuilt run, and the report consistent with the records.
func FuzzRebuild(f *testing.F) {
	f.Add([]byte{24, 1, 0, 32, 0, 9, 0, 3, 0, 255, 255, 40, 0, 1, 0, 0, 1, 16, 0, 24, 0, 2, 0, 0, 6})
	f.Add(bytes.Repeat([]byte{7, 200, 1, 48, 0, 30, 0, 12, 0}, 40))
	f.Add(bytes.Repeat([]byte{0, 0, 0, 0, 0, 0, 0, 0, 3}, 20))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := fuzzSampledProfile(data)
		if p == nil {
			return
		}
		for _, h := range []Hypothesis{HypothesisAuto, HypothesisShort, HypothesisLong, HypothesisStored} {
			r, rep, err := Rebuild(p, RebuildOptions{Hypothesis: h})
			if err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			if rep == nil {
				if p.Len() >= 2 {
					t.Fatalf("%s: no report for %d sampled records", h, p.Len())
				}
				continue
			}
			if err := r.Validate(); err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			if r.Len() != p.Len()+rep.InferredLarge {
				t.Fatalf("%s: %d records from %d + %d inferred", h, r.Len(), p.Len(), rep.InferredLarge)
			}
			var large int
			var inferredBytes uint64
			for i := range r.Len() {
				isLarge := profile.AllocatesInOldSpace(r.SizeBytes[i], r.Flags[i])
				if isLarge {
					large++
					if r.Weight[i] != 1 {
						t.Fatalf("%s: large record %d weighs %d", h, i, r.Weight[i])
					}
				} else if r.Weight[i] != p.Weight[0] {
					t.Fatalf("%s: small record %d weighs %d, not %d", h, i, r.Weight[i], p.Weight[0])
				}
				if r.ClassName(i) == "(large, inferred from the clock)" {
					inferredBytes += uint64(r.SizeBytes[i])
				}
			}
			if large != rep.SampledLarge+rep.InferredLarge || inferredBytes != rep.InferredLargeBytes {
				t.Fatalf("%s: %d large records, %d inferred bytes; report %+v", h, large, inferredBytes, rep)
			}
			if rep.ClockBytes != r.Meta.EndBytes || rep.ClockBytes > p.Meta.EndBytes || math.IsNaN(rep.ExplainedShare) {
				t.Fatalf("%s: report %+v, end %d of %d", h, rep, r.Meta.EndBytes, p.Meta.EndBytes)
			}
			checkStored(t, h, r, rep)
		}
	})
}

// checkStored checks what HypothesisStored assumed: only it makes containers; each is a large
// record alive at the end; each stored record is small and alive at the end, referenced from
// its own birth by a container born before it or from the birth of a container born after it,
// until its death; the report counts them.
func checkStored(t *testing.T, h Hypothesis, r *profile.Profile, rep *RebuildReport) {
	t.Helper()
	if h != HypothesisStored {
		if len(r.Containers) != 0 || r.StoredIn != nil || rep.Containers != 0 {
			t.Fatalf("%s: %d containers, stores %v", h, len(r.Containers), r.StoredIn != nil)
		}
		return
	}
	if len(r.Containers) != rep.Containers {
		t.Fatalf("stored: %d containers, report %d", len(r.Containers), rep.Containers)
	}
	for _, c := range r.Containers {
		if !profile.AllocatesInOldSpace(r.SizeBytes[c.Record], r.Flags[c.Record]) || !r.AliveAtEnd(int(c.Record)) {
			t.Fatalf("stored: container record %d is not large and alive at the end", c.Record)
		}
	}
	stored := 0
	for i := range r.Len() {
		st, from, until, ok := r.StoreWindow(i)
		if !ok {
			continue
		}
		stored++
		c := r.Containers[r.Stores[st].Container].Record
		if profile.AllocatesInOldSpace(r.SizeBytes[i], r.Flags[i]) || !r.AliveAtEnd(i) || from != max(r.Birth[i], r.Birth[c]) || until != r.Death[i] {
			t.Fatalf("stored: record %d (born %d) stored into record %d (born %d) for [%d, %d)", i, r.Birth[i], c, r.Birth[c], from, until)
		}
	}
	if stored != rep.StoredRecords {
		t.Fatalf("stored: %d stored records, report %d", stored, rep.StoredRecords)
	}
}
