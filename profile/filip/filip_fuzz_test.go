package filip

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/gctune/gctune/internal/profiletest"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gctune/gctune/profile"
)

// FuzzReadFiLiP feeds arbitrary CSV and metadata to ReadFrom. Whatever the input, the
// reader must not panic and must return either an error or a Profile that validates, whose alive
// records die at the end, and whose report counts its rows. The fused fast row parser and the
// checking parser must also agree on every input.
//
// Run it with: go test ./lifetimes -run '^$' -fuzz FuzzReadFiLiP -fuzztime 3m
// Interesting inputs it found are kept in testdata/fuzz/FuzzReadFiLiP.
func FuzzReadFiLiP(f *testing.F) {
	for i, csv := range profiletest.ReadTestdata(f, "filip", "*.csv") {
		meta, _ := os.ReadFile(DefaultJSONPath(csv.Path)) // none: nil
		f.Add(csv.Data, meta, uint8(i%3), i%2 == 0)
	}
	f.Add([]byte(filipHeader8+"\n3912345678901234,24,3912345678900000,A,0,0,m,1\n"), []byte(`{"samplingRate":0.01}`), uint8(0), false)
	f.Add([]byte(filipHeader8+"\n1e3,24.0, 10 ,A,+1,,m,\r\n"), []byte(`{"profiler":"Illimani v1.1","totalExecutionTime":5}`), uint8(0), true)
	// Every layout, with commas in the method's column.
	for _, l := range filipLayouts() {
		var row strings.Builder
		row.WriteString("3932000000000900,24,3932000000000100,Foo class,1,0")
		if l.forced {
			row.WriteString(",true")
		}
		for k := range l.site {
			row.WriteString([]string{",Foo>>#,", ",7", ",Bar"}[k%3])
		}
		header := `"` + strings.Join(l.columns, `","`) + `"`
		f.Add([]byte(header+"\n"+row.String()+"\n"), []byte("{\n\t\"sampligRate\" : 25,\n\t\"profiler\" : \"IllMemoryProfiler\"\n}"), uint8(0), false)
	}

	f.Fuzz(func(t *testing.T, csv, meta []byte, clock uint8, skipBad bool) {
		opts := Options{Clock: Clock(clock % 3), SkipBadRows: skipBad}
		metaReader := func() *bytes.Reader {
			if len(meta) == 0 {
				return nil
			}
			return bytes.NewReader(meta)
		}
		read := func(src filipSource, tune filipTuning) (*profile.Profile, *Report, error) {
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
			if !strings.HasPrefix(err.Error(), "filip: ") {
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
			if rep.Era == "" || rep.ClockReason == "" || rep.Weight == 0 {
				t.Fatalf("report without era, reason or weight: %+v", rep)
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

func profilesEqual(a, b *profile.Profile) bool {
	return a.Meta == b.Meta && slices.Equal(a.ClassNames, b.ClassNames) && slices.Equal(a.Class, b.Class) &&
		slices.Equal(a.SizeBytes, b.SizeBytes) && slices.Equal(a.Birth, b.Birth) && slices.Equal(a.Death, b.Death) &&
		slices.Equal(a.Weight, b.Weight) && slices.Equal(a.Flags, b.Flags) && slices.Equal(a.Containers, b.Containers)
}

func reportsEqual(a, b *Report) bool {
	return a.Layout == b.Layout && a.Era == b.Era && a.Profiler == b.Profiler && a.SamplingRate == b.SamplingRate &&
		a.Weight == b.Weight && (a.GCCounts == nil) == (b.GCCounts == nil) && (a.GCCounts == nil || *a.GCCounts == *b.GCCounts) &&
		a.Clock == b.Clock && a.ClockReason == b.ClockReason && a.Rows == b.Rows &&
		a.SkippedRows == b.SkippedRows && slices.Equal(a.FirstSkipped, b.FirstSkipped) && slices.Equal(a.Warnings, b.Warnings)
}

// FuzzFiLiPMeta feeds arbitrary metadata beside a valid CSV. The reader must not panic; an
// error is one line naming the metadata file; a success has a sampling rate in (0, 1] and
// weights of round(1/rate), and its metadata is valid JSON with no key twice in an object.
//
// Run it with: go test ./lifetimes -run '^$' -fuzz FuzzFiLiPMeta -fuzztime 3m
func FuzzFiLiPMeta(f *testing.F) {
	for _, meta := range profiletest.ReadTestdata(f, "filip", "*.json") {
		f.Add(meta.Data)
	}
	f.Add([]byte("{\n\t\"samplingRate\" : 0.01,\n\t\"samplingRate\" : 1\n}"))
	f.Add([]byte(`{"a":{"b":1,"b":2}}`))
	f.Add([]byte(`{"samplingRate":0.5,"sampligRate":25,"profiler":null}`))
	csv := []byte(filipHeader8 + "\n7340034160,16,7340033160,Fraction,0,0,NumberParser>>#makeFraction,23\n7340035000,40,7340033400,Array,0,0,Foo>>#,,5\n")
	f.Fuzz(func(t *testing.T, meta []byte) {
		p, rep, err := ReadFrom(bytes.NewReader(csv), "fuzz.csv", bytes.NewReader(meta), Options{})
		if err != nil {
			if p != nil || rep != nil {
				t.Fatalf("error %v with a profile or a report", err)
			}
			msg := err.Error()
			// A rate the metadata does not give is named after the export, the metadata in it.
			names := strings.HasPrefix(msg, "filip: fuzz.json: ") ||
				(errors.Is(err, ErrUnknownSamplingRate) && strings.Contains(msg, "fuzz.json"))
			if !names || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line naming the metadata", msg)
			}
			return
		}
		if !json.Valid(meta) {
			t.Fatalf("invalid JSON accepted: %q", meta)
		}
		if dupKey(meta) {
			t.Fatalf("metadata with a duplicate key accepted: %q", meta)
		}
		r := p.Meta.SamplingRate
		if !(r > 0 && r <= 1) || rep.SamplingRate != r {
			t.Fatalf("sampling rate %v (report %v)", r, rep.SamplingRate)
		}
		if w := uint32(math.Round(1 / r)); p.Weight[0] != w || rep.Weight != w {
			t.Fatalf("weight %d, report %d, want %d", p.Weight[0], rep.Weight, w)
		}
	})
}

// dupKey reports whether a valid JSON document holds a key twice in one object, by decoding
// every object into ordered key lists (an independent check of checkDuplicateKeys).
func dupKey(data []byte) bool {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return false
	}
	// encoding/json keeps the last of duplicate keys, so compare the number of keys decoded
	// with the number of keys in the text, object by object, through a token walk.
	dec = json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := func() *frame {
			if len(stack) == 0 {
				return nil
			}
			return stack[len(stack)-1]
		}
		if fr := top(); fr != nil && fr.obj && fr.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if p := top(); p != nil && p.obj {
					p.key = true
				}
				continue
			}
			k := tok.(string)
			if fr.keys[k] {
				return true
			}
			fr.keys[k] = true
			fr.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if p := top(); p != nil && p.obj {
			p.key = true
		}
		if len(stack) == 0 && !dec.More() {
			return false
		}
	}
}
