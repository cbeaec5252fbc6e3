package simulate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/tunable"
)

// BatchParams is one line of batch input: tunables by their keys in tunable.All, each a JSON
// number or a string as the configuration takes it ("64MiB", "pharo"); null leaves a key at
// its configured value.
type BatchParams map[string]json.RawMessage

// Apply sets the line's tunables in p, each parsed as a configuration value is
// (tunable.Tunable.ParseAny); an unknown key or a bad value is an error naming it.
func (in BatchParams) Apply(p *heapsim.Params) error {
	for _, k := range slices.Sorted(maps.Keys(in)) {
		t, ok := tunable.ByKey(k)
		if !ok {
			return fmt.Errorf("unknown field %q (known: %s)", k, strings.Join(tunable.Keys(), ", "))
		}
		var raw any
		if err := json.Unmarshal(in[k], &raw); err != nil {
			return fmt.Errorf("%s %s: want a number or a string", k, in[k])
		}
		switch raw.(type) {
		case nil: // not given
			continue
		case float64, string:
		default:
			return fmt.Errorf("%s %s: want a number or a string", k, in[k])
		}
		v, err := t.ParseAny(raw)
		if err != nil {
			return fmt.Errorf("%s %s: %w", k, in[k], err)
		}
		v.Apply(p)
	}
	return nil
}

// BatchResult is one line of batch output: the parameters simulated, the run and its
// speedup over the defaults, or the line's error.
type BatchResult struct {
	Line    int             `json:"line"`
	Params  *heapsim.Params `json:"params,omitempty"`
	Stats   *heapsim.Stats  `json:"stats,omitempty"`
	Speedup float64         `json:"speedup,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// BatchOptions are what Batch simulates besides the profile.
type BatchOptions struct {
	// Ref names the profile in an error.
	Ref string
	// Given are the parameters a line's keys change; Default the run the speedups are over;
	// Cost the cost model of every run.
	Given, Default heapsim.Params
	Cost           heapsim.Cost
	// Started, when set, is called once the default run is simulated, before the first line
	// is read (the command line says there how the profile was read).
	Started func()
}

// Batch simulates p for every parameter set read from r, one JSON object a line
// (BatchParams), and writes one JSON line each to w (BatchResult): the run, or the line's
// error (a line longer than MaxBatchLineBytes, a key given twice, malformed JSON, an unknown
// key, a bad value, a failed run), and the batch goes on. Blank lines are skipped but
// counted. Its own errors are the defaults' run's, reading r and writing w.
func Batch(r io.Reader, w io.Writer, p *profile.Profile, o BatchOptions) error {
	def, err := heapsim.Simulate(p, o.Default, o.Cost)
	if err != nil {
		return fmt.Errorf("simulate %s at the defaults: %w", o.Ref, err)
	}
	if o.Started != nil {
		o.Started()
	}
	br := bufio.NewReader(r)
	enc := json.NewEncoder(w)
	line := 0
	for {
		raw, tooLong, err := readBatchLine(br, MaxBatchLineBytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("batch input: %w", err)
		}
		if raw == nil && !tooLong && errors.Is(err, io.EOF) {
			break
		}
		line++
		text := strings.TrimSpace(string(raw))
		if text == "" && !tooLong {
			continue
		}
		res := BatchResult{Line: line}
		var in BatchParams
		params := o.Given
		if tooLong {
			res.Error = fmt.Sprintf("line %d: longer than %d bytes", line, MaxBatchLineBytes)
		} else if err := duplicateKey(text); err != nil {
			res.Error = fmt.Sprintf("line %d: %v", line, err)
		} else if err := json.Unmarshal([]byte(text), &in); err != nil {
			res.Error = fmt.Sprintf("line %d: %v", line, err)
		} else if err := in.Apply(&params); err != nil {
			res.Error = fmt.Sprintf("line %d: %v", line, err)
		} else {
			st, err := heapsim.Simulate(p, params, o.Cost)
			if err != nil {
				res.Error = fmt.Sprintf("line %d: %v", line, err)
			} else {
				res.Params, res.Stats = &params, &st
				res.Speedup = def.TotalSeconds / st.TotalSeconds
			}
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	return nil
}
