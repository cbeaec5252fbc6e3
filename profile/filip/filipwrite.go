package filip

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gctune/gctune/profile"
)

// ErrBadSample is wrapped by the errors WriteSample returns for bad options.
var ErrBadSample = errors.New("filip: bad sample options")

// Defaults of SampleOptions, as the current exporter would see them.
const (
	// DefaultSampleStartBytes is parameter 34 when profiling starts: the bytes the VM had
	// allocated before (an image that has run for a while). Any nonzero value will do; the
	// export carries absolute readings, as FiLiP's do.
	DefaultSampleStartBytes = 3_221_225_472 + 123_456
	// DefaultSampleOverheadBytes is what the profiler itself allocates per sampled allocation
	// and parameter 34 counts although no row records it: FiLiP>>internalRegisterAllocation:
	// makes a FiLiPEphemeron (newTenured: an Association with 9 more instance variables, 11
	// slots, 96 bytes, in old space) and the senders' Array new: 120 (968 bytes). The contexts
	// it reifies walking the stack are not counted.
	DefaultSampleOverheadBytes = 96 + 968
	// sampleAllocator is the allocation site written in a row whose profile names none.
	sampleAllocator = "UndefinedObject>>#DoIt"
)

// filipCurrentHeader is the header FiLiPExporter>>headerOfAllocationModel writes, each name
// quoted by NeoCSVWriter (the header is written before fieldWriter: #raw is set).
const filipCurrentHeader = `"finalizationTimeInMicroSeconds","sizeInBytes","initializationTimeInMicroSeconds","allocatedObjectClass","survivedScavenges","survivedFullGCs","textualAllocatorMethod","textualAllocatorMethodOffset"`

// SampleOptions are the settings of WriteSample.
type SampleOptions struct {
	// Every is N of a 1/N sampling rate: every N-th counted allocation is recorded
	// (IllAbstractProfiler>>registerAllocation:). 0 or 1 records every allocation.
	Every uint64
	// Phase is the position, in [0, Every), of the recorded allocation in each window of
	// Every allocations: allocation c (counted from 0) is recorded when c mod Every = Phase.
	// FiLiP's own counter starts at 0 and records the first allocation: Phase 0. Other phases
	// stand for the same program profiled from another starting point.
	Phase uint64
	// StartBytes is parameter 34 when profiling starts (0 means DefaultSampleStartBytes).
	StartBytes uint64
	// OverheadBytes is what the profiler allocates per sampled allocation, counted by
	// parameter 34 before the sampled object's birth is read (see DefaultSampleOverheadBytes;
	// the CLI's default). 0 writes a clock with no profiler allocations.
	OverheadBytes uint64
	// Scavenges and FullGCs go to the JSON's totalScavenges and totalFullGCs.
	Scavenges, FullGCs int
	// ProfiledCode goes to the JSON's profiledCode.
	ProfiledCode string
	// Seed seeds the order in which the objects of neighbouring records are allocated (see
	// WriteSample).
	Seed uint64
}

// SampleReport tells what WriteSample wrote.
type SampleReport struct {
	// Allocations is the number of allocations the profile stands for (the sum of weights),
	// Rows the number recorded.
	Allocations, Rows uint64
	// StartBytes and EndBytes are parameter 34 at start and stop; TotalExecutionTime is their
	// difference, the JSON's totalExecutionTime.
	StartBytes, EndBytes, TotalExecutionTime uint64
	// AliveAtEnd is the number of rows force-finalized at stop.
	AliveAtEnd uint64
	// SamplingRate is the rate written in the JSON.
	SamplingRate float64
}

// WriteSample writes p as the current FiLiP exporter (HEAD, layout LayoutCurrent)
// would have written it for a run that allocated exactly p's objects, profiled at 1/Every:
// the CSV (quoted header, raw rows in allocation order) to csv and the JSON metadata (NeoJSON
// pretty: tab indentation, `"key" : value`) to meta.
//
// Counting. Every record stands for Weight objects; they are allocated in birth order, the
// objects of consecutive records (about 4,096 at a time) in an order shuffled with Seed, so that
// the Weight objects of one size a generated record stands for are not allocated back to back
// (a chunk whose records all weigh 1 keeps its order).
// Each is one counted allocation, recorded when its index modulo Every is Phase. Parameter 34 starts at StartBytes and counts
// every allocated byte: the objects (recorded or not) and OverheadBytes per recorded one.
// A row's initialization time is parameter 34 just after its object was allocated, as
// FiLiPEphemeron>>initialize reads it; its finalization time is parameter 34 at the object's
// death (the profile's Death, moved by the profiler's allocations up to then), or, for an
// object still alive at the end, parameter 34 at stop, where FiLiP>>stopProfiling
// force-finalizes it with no marker. The real profiler stamps a death when the collector
// mourns the ephemeron, at the first scavenge (or full GC) after it; the profile's own death
// instant is written instead. survivedScavenges and survivedFullGCs are written 0 (a profile
// does not know them); the allocation site is the record's (profile.SplitSite: its method, its
// offset or 0), or "UndefinedObject>>#DoIt" at offset 0 when the profile names none.
func WriteSample(p *profile.Profile, csv, meta io.Writer, opts SampleOptions) (SampleReport, error) {
	every := max(opts.Every, 1)
	if opts.Phase >= every {
		return SampleReport{}, fmt.Errorf("%w: phase %d is not below the sampling period %d", ErrBadSample, opts.Phase, every)
	}
	start := opts.StartBytes
	if start == 0 {
		start = DefaultSampleStartBytes
	}
	// Two walks over the profile, the same allocations shuffled the same way: the first finds
	// where parameter 34 ends and how the profiler's allocations move each death, the second
	// writes each row as it is recorded. Nothing grows with the rows written.
	var rows uint64
	checkpoints, rep := sampleWalk(p, every, opts.Phase, start, opts.OverheadBytes, opts.Seed, func(int, uint64) { rows++ })
	if rows == 0 {
		return SampleReport{}, fmt.Errorf("%w: the profile has %d allocations, none at phase %d of 1/%d", ErrBadSample, rep.Allocations, opts.Phase, every)
	}
	bw := bufio.NewWriterSize(csv, 1<<20)
	bw.WriteString(filipCurrentHeader)
	bw.WriteByte('\n')
	var buf []byte
	var lifetimeSum float64
	sampleWalk(p, every, opts.Phase, start, opts.OverheadBytes, opts.Seed, func(i int, at uint64) {
		birth := start + at
		death := rep.EndBytes
		if p.AliveAtEnd(i) {
			rep.AliveAtEnd++
		} else {
			death = exportDeath(checkpoints, p.Death[i], start, birth, rep.EndBytes)
		}
		lifetimeSum += float64(death - birth)
		buf = strconv.AppendUint(buf[:0], death, 10)
		buf = append(buf, ',')
		buf = strconv.AppendUint(buf, uint64(p.SizeBytes[i]), 10)
		buf = append(buf, ',')
		buf = strconv.AppendUint(buf, birth, 10)
		buf = append(buf, ',')
		buf = append(buf, p.ClassNames[p.Class[i]]...)
		buf = append(buf, ",0,0,"...)
		buf = appendSampleSite(buf, p, i)
		buf = append(buf, '\n')
		bw.Write(buf)
	})
	if err := bw.Flush(); err != nil {
		return SampleReport{}, fmt.Errorf("filip: write sample CSV: %w", err)
	}
	rep.Rows = rows
	rep.SamplingRate = 1 / float64(every)
	if err := writeSampleMeta(meta, rep, lifetimeSum/float64(rows), opts); err != nil {
		return SampleReport{}, err
	}
	return rep, nil
}

// sampleChunkCopies is how many allocations of consecutive records are shuffled together: a
// record of weight w stands for w objects of one size, which a real program does not allocate
// back to back; spread among their neighbours they no longer fill whole sampling windows.
const sampleChunkCopies = 4096

// sampleCheckpoint is a change of shift: from profile clock at on, parameter 34 is start + the
// profile's clock + shift.
type sampleCheckpoint struct{ at, shift uint64 }

// sampleWalk counts p's allocations and calls record(i, at) for each recorded one, in
// allocation order: record i of p, parameter 34 − start just after its allocation. It returns
// the checkpoints that move deaths onto the export's clock (exportDeath) and the report's
// counts (Allocations, StartBytes, EndBytes, TotalExecutionTime). Records are expanded into
// their Weight allocations, shuffled (seeded) within chunks of about sampleChunkCopies
// allocations of consecutive records unless every record of the chunk weighs 1; a record
// heavier than a chunk is expanded in place. The walk is deterministic: two walks with the
// same arguments record the same allocations.
func sampleWalk(p *profile.Profile, every, phase, start, overhead, seed uint64, record func(i int, at uint64)) ([]sampleCheckpoint, SampleReport) {
	var rep SampleReport
	rep.StartBytes = start
	rng := rand.New(rand.NewPCG(seed, 0x5a3b1e))
	// shift is parameter 34 minus (start + the profile's clock) after the current chunk: the
	// profiler's allocations so far, plus any drift of objects allocated past their record's
	// span. checkpoints holds (profile clock, shift) each time it changes, to move deaths.
	var shift uint64
	checkpoints := []sampleCheckpoint{{0, 0}}
	var counted uint64 // allocations counted so far
	var clock uint64   // parameter 34 − start after the last allocation
	var seq []int32
	n := p.Len()
	for i := 0; i < n; {
		clock = max(clock, p.Birth[i]+shift)
		j := i + 1
		var endProf uint64
		if w := uint64(p.Weight[i]); w > sampleChunkCopies {
			// A heavy record alone, in place: its recorded copies by arithmetic.
			size := uint64(p.SizeBytes[i])
			first := counted + (phase+every-counted%every)%every
			base := clock
			var taken uint64
			for c := first; c < counted+w; c += every {
				taken++
				record(i, base+(c-counted+1)*size+taken*overhead)
			}
			clock = base + w*size + taken*overhead
			counted += w
			endProf = p.Birth[i] + w*size
		} else {
			copies := w
			for j < n && uint64(p.Weight[j]) <= sampleChunkCopies && copies+uint64(p.Weight[j]) <= sampleChunkCopies {
				copies += uint64(p.Weight[j])
				j++
			}
			seq = seq[:0]
			for r := i; r < j; r++ {
				for range p.Weight[r] {
					seq = append(seq, int32(r))
				}
				endProf = max(endProf, p.Birth[r]+uint64(p.Weight[r])*uint64(p.SizeBytes[r]))
			}
			if len(seq) > j-i { // records of one object each keep their order
				rng.Shuffle(len(seq), func(a, b int) { seq[a], seq[b] = seq[b], seq[a] })
			}
			for _, r := range seq {
				clock += uint64(p.SizeBytes[r])
				if counted%every == phase {
					clock += overhead
					record(int(r), clock)
				}
				counted++
			}
		}
		// Gaps between the chunk's records (an export's windows) are kept at its end.
		clock = max(clock, endProf+shift)
		if s := clock - endProf; s != shift {
			shift = s
			at := max(checkpoints[len(checkpoints)-1].at, endProf) // kept sorted
			checkpoints = append(checkpoints, sampleCheckpoint{at, shift})
		}
		i = j
	}
	end := max(p.Meta.EndBytes+shift, clock)
	rep.Allocations = counted
	rep.EndBytes = start + end
	rep.TotalExecutionTime = end
	return checkpoints, rep
}

// exportDeath puts a death on the profile's clock onto the export's: start + death + the shift
// in force at the death, at least the birth and at most the end.
func exportDeath(checkpoints []sampleCheckpoint, deathProf, start, birth, end uint64) uint64 {
	k, found := slices.BinarySearchFunc(checkpoints, deathProf, func(c sampleCheckpoint, t uint64) int {
		switch {
		case c.at < t:
			return -1
		case c.at > t:
			return 1
		}
		return 0
	})
	if !found {
		k--
	}
	d := start + deathProf + checkpoints[k].shift
	return max(min(d, end), birth)
}

// writeSampleMeta writes the JSON as IllSimpleExporter>>jsonDictionary plus
// FiLiPExporter>>jsonDictionary's averageLifetimes, through NeoJSONWriter toStringPretty:.
func writeSampleMeta(w io.Writer, rep SampleReport, avgLifetime float64, opts SampleOptions) error {
	code, err := json.Marshal(opts.ProfiledCode)
	if err != nil {
		return fmt.Errorf("filip: write sample JSON: %w", err)
	}
	rate := "1"
	if every := max(opts.Every, 1); every > 1 {
		rate = pharoFloat(1 / float64(every))
	}
	entries := []string{
		`"totalExecutionTime" : ` + strconv.FormatUint(rep.TotalExecutionTime, 10),
		`"totalFullGCs" : ` + strconv.Itoa(opts.FullGCs),
		`"profiledCode" : ` + string(code),
		`"totalScavenges" : ` + strconv.Itoa(opts.Scavenges),
		`"samplingRate" : ` + rate,
		`"profiler" : "FiLiP"`,
		`"averageLifetimes" : ` + pharoFloat(avgLifetime),
	}
	text := "{\n\t" + strings.Join(entries, ",\n\t") + "\n}"
	if _, err := io.WriteString(w, text); err != nil {
		return fmt.Errorf("filip: write sample JSON: %w", err)
	}
	return nil
}

// pharoFloat prints a Float as Pharo's printString does: the shortest digits that read back,
// always with a fraction part ("12.0"), in exponent form from 1e16 up ("1.0e16") and below
// 1e-4 ("1.0e-5").
func pharoFloat(f float64) string {
	if f == 0 {
		return "0.0"
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e16 || a < 1e-4 {
		s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+16, 1.5e-05
		mant, exp, _ := strings.Cut(s, "e")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		e, _ := strconv.Atoi(exp)
		return mant + "e" + strconv.Itoa(e)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// appendSampleSite appends record i's textualAllocatorMethod and textualAllocatorMethodOffset
// columns.
func appendSampleSite(buf []byte, p *profile.Profile, i int) []byte {
	method, offset := sampleAllocator, "0"
	if p.Site != nil {
		if name := p.SiteNames[p.Site[i]]; name != profile.UnknownSite {
			method, offset = profile.SplitSite(name)
			if offset == "" {
				offset = "0"
			}
		}
	}
	buf = append(buf, method...)
	buf = append(buf, ',')
	return append(buf, offset...)
}
