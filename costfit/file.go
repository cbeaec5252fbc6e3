package costfit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gctune/gctune/heapsim"
)

// FileKind is the kind every cost file declares.
const FileKind = "gctune-cost"

// File is a cost file: the coefficients every simulation uses (heapsim.Cost, by its JSON
// names), and where they came from. Only Coefficients changes what gctune computes; the rest
// is provenance.
type File struct {
	Kind string `yaml:"kind"`
	// Profile is the profile the fit simulated; Measured what the run measured.
	Profile  string    `yaml:"profile,omitempty"`
	Measured *Measured `yaml:"measured,omitempty"`
	// Base names the cost the scales multiply ("built-in" or a cost file's path).
	Base   string  `yaml:"base,omitempty"`
	Scales *Scales `yaml:"scales,omitempty"`
	Method string  `yaml:"method,omitempty"`
	// GctuneVersion is the gctune that wrote the file.
	GctuneVersion string `yaml:"gctune_version,omitempty"`
	// Coefficients are heapsim.Cost's fields by their JSON names; every one must be present.
	Coefficients map[string]float64 `yaml:"coefficients,omitempty"`
}

// NewFile returns the file holding cost c.
func NewFile(c heapsim.Cost) (*File, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("costfit: encode cost: %w", err)
	}
	f := &File{Kind: FileKind}
	if err := json.Unmarshal(b, &f.Coefficients); err != nil {
		return nil, fmt.Errorf("costfit: encode cost: %w", err)
	}
	return f, nil
}

// Cost returns the file's coefficients as a heapsim.Cost, checking that each of heapsim.Cost's
// coefficients is given exactly once, known and valid.
func (f *File) Cost() (heapsim.Cost, error) {
	var c heapsim.Cost
	want := costKeys()
	var missing, unknown []string
	for _, k := range want {
		if _, ok := f.Coefficients[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range f.Coefficients {
		if !slices.Contains(want, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	if len(unknown) > 0 {
		return c, fmt.Errorf("unknown coefficient %s (known: %s)", strings.Join(unknown, ", "), strings.Join(want, ", "))
	}
	if len(missing) > 0 {
		return c, fmt.Errorf("coefficient %s missing (a file from another gctune version? run gctune calibrate again)", strings.Join(missing, ", "))
	}
	for _, k := range want { // in order: the first bad one named
		if v := f.Coefficients[k]; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return c, fmt.Errorf("coefficient %s = %v: must be a finite number ≥ 0", k, v)
		}
	}
	b, err := json.Marshal(f.Coefficients)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, err
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}

// costKeys lists heapsim.Cost's JSON names in field order.
func costKeys() []string {
	t := reflect.TypeOf(heapsim.Cost{})
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return keys
}

// WriteFile writes f as YAML with a header comment; the coefficients keep heapsim.Cost's order.
func WriteFile(w io.Writer, f *File) error {
	var buf bytes.Buffer
	buf.WriteString("# gctune cost model: the coefficients that turn simulated GC work into seconds.\n")
	buf.WriteString("# Use it with --cost FILE on any command that simulates, or the config key cost.\n")
	head := *f
	head.Coefficients = nil
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&head); err != nil {
		return fmt.Errorf("costfit: encode cost file: %w", err)
	}
	_ = enc.Close()
	buf.WriteString("coefficients:\n")
	for _, k := range costKeys() {
		v, ok := f.Coefficients[k]
		if !ok {
			return fmt.Errorf("costfit: encode cost file: coefficient %s missing", k)
		}
		fmt.Fprintf(&buf, "  %s: %s\n", k, formatFloat(v))
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func formatFloat(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// MaxCostBytes caps a cost file: a real one is about a kilobyte, and a larger (or endless:
// /dev/zero) one is refused after MaxCostBytes+1 bytes, not read whole.
const MaxCostBytes = 16 << 20

// ReadFile reads a cost file and returns it with its cost; errors name the file (name) and
// what is wrong. It reads at most MaxCostBytes+1 bytes of r.
func ReadFile(r io.Reader, name string) (*File, heapsim.Cost, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxCostBytes+1))
	if err != nil {
		return nil, heapsim.Cost{}, fmt.Errorf("costfit: cost file %s: %w", name, err)
	}
	if len(data) > MaxCostBytes {
		return nil, heapsim.Cost{}, tooLargeError(fmt.Sprintf("costfit: cost file %s: larger than the %d MiB a cost file may have: not a cost file", name, MaxCostBytes>>20))
	}
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, heapsim.Cost{}, fmt.Errorf("costfit: cost file %s: %w", name, err)
	}
	if f.Kind != FileKind {
		return nil, heapsim.Cost{}, fmt.Errorf("costfit: cost file %s: kind %q, want %q (a file written by gctune calibrate -o)", name, f.Kind, FileKind)
	}
	c, err := f.Cost()
	if err == nil {
		err = f.checkRanges(c)
	}
	if err != nil {
		return nil, heapsim.Cost{}, fmt.Errorf("costfit: cost file %s: %w", name, err)
	}
	return &f, c, nil
}
