package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gctune/gctune/internal/units"
)

// Load reads and parses a workload spec file; errors name the file.
func Load(path string) (*Spec, error) {
	data, err := ReadCapped(path, MaxBytes, "spec")
	if err != nil {
		return nil, fmt.Errorf("spec: load spec: %w", err)
	}
	return Parse(data, path)
}

// Parse parses and validates a YAML workload spec (see docs/workloads.md). name identifies
// the document in errors and becomes the generated Profile's Meta.Source (a file name, or
// "workload:NAME"; empty means "workload:" + the spec's name). Unknown keys, wrong types, bad
// units, unknown distributions and inconsistent values are refused with a *Error naming
// the key path and line; every error wraps ErrInvalid.
func Parse(data []byte, name string) (*Spec, error) {
	p := &specParser{file: name, lines: make(map[string]int)}
	s, err := p.parse(data)
	if err != nil {
		return nil, err
	}
	s.origin = name
	s.lines = p.lines
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// specParser walks the YAML node tree by hand rather than decoding into structs, so that each
// error can name the full key path and line, unknown keys are refused with the list of known
// ones, and shorthands ("lifetime: until-end", "size: 24MB", "allocate: 75%") need no
// reflection tricks. It is as strict as yaml.v3's Decoder.KnownFields(true), and stricter:
// duplicate keys, merge keys and multiple documents are refused too.
type specParser struct {
	file    string
	lines   map[string]int
	aliases *aliasBudget // bounds the nodes walked through aliases (yamlbound.go)
}

func (p *specParser) errf(n *yaml.Node, path, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: p.file, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// resolve follows aliases (bounded, in case of an alias cycle).
func (p *specParser) resolve(n *yaml.Node, path string) (*yaml.Node, error) {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i > 32 {
			return nil, p.errf(n, path, "alias chain too long")
		}
		if err := p.aliases.follow(n.Alias); err != nil {
			return nil, p.errf(n, path, "%v", err)
		}
		n = n.Alias
	}
	if n == nil {
		return nil, p.errf(nil, path, "missing value")
	}
	return n, nil
}

type specField struct {
	key   string
	node  *yaml.Node // the value
	path  string
	keyAt *yaml.Node
}

// mapping returns the fields of a mapping node in document order, refusing duplicate and
// unknown keys.
func (p *specParser) mapping(n *yaml.Node, path string, known []string) ([]specField, error) {
	n, err := p.resolve(n, path)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, path, "want a mapping (key: value lines), got %s", specNodeKind(n))
	}
	fields := make([]specField, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := p.resolve(n.Content[i], path)
		if err != nil {
			return nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, p.errf(k, path, "want a plain key, got %s", specNodeKind(k))
		}
		key := k.Value
		sub := specJoin(path, key)
		if !slices.Contains(known, key) {
			return nil, p.errf(k, path, "unknown key %q (known keys: %s)", key, strings.Join(known, ", "))
		}
		for _, f := range fields {
			if f.key == key {
				return nil, p.errf(k, path, "key %q given twice", key)
			}
		}
		p.lines[sub] = k.Line
		fields = append(fields, specField{key: key, node: n.Content[i+1], path: sub, keyAt: k})
	}
	return fields, nil
}

func (p *specParser) sequence(n *yaml.Node, path string) ([]*yaml.Node, error) {
	n, err := p.resolve(n, path)
	if err != nil {
		return nil, err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, path, "want a list, got %s", specNodeKind(n))
	}
	return n.Content, nil
}

func (p *specParser) scalar(n *yaml.Node, path string) (*yaml.Node, error) {
	n, err := p.resolve(n, path)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.ScalarNode {
		return nil, p.errf(n, path, "want a single value, got %s", specNodeKind(n))
	}
	return n, nil
}

func (p *specParser) str(n *yaml.Node, path string) (string, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return "", err
	}
	if s.Tag == "!!null" {
		return "", nil
	}
	return s.Value, nil
}

func (p *specParser) boolean(n *yaml.Node, path string) (bool, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return false, err
	}
	var v bool
	if s.ShortTag() != "!!bool" || s.Decode(&v) != nil {
		return false, p.errf(s, path, "want true or false, got %q", s.Value)
	}
	return v, nil
}

// number reads a dimensionless, finite, non-negative number.
func (p *specParser) number(n *yaml.Node, path string) (float64, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return 0, err
	}
	var v float64
	if t := s.ShortTag(); (t != "!!int" && t != "!!float") || s.Decode(&v) != nil {
		return 0, p.errf(s, path, "want a number, got %q", s.Value)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.errf(s, path, "want a finite number, got %q", s.Value)
	}
	if v < 0 {
		return 0, p.errf(s, path, "must not be negative, got %q", s.Value)
	}
	return v, nil
}

// integer reads a non-negative integer (1e6 and 1_000_000 are accepted).
func (p *specParser) integer(n *yaml.Node, path string) (int, error) {
	v, err := p.number(n, path)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, p.errf(n, path, "want a whole number up to %d, got %q", math.MaxInt32, n.Value)
	}
	return int(v), nil
}

// bytesValue reads a byte quantity: a plain number of bytes, or a number with a unit as
// internal/units.ParseBytes accepts it (k/m/g/t and KiB/MiB/GiB/TiB binary; kB/KB/MB/GB/TB
// decimal).
func (p *specParser) bytesValue(n *yaml.Node, path string) (float64, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return 0, err
	}
	switch s.ShortTag() {
	case "!!int", "!!float":
		return p.number(s, path)
	case "!!str":
		v := strings.TrimSpace(s.Value)
		if strings.HasPrefix(v, "-") {
			return 0, p.errf(s, path, "must not be negative, got %q", s.Value)
		}
		b, err := units.ParseBytes(v)
		if err != nil {
			return 0, p.errf(s, path, "bad byte size %q: want a number of bytes with an optional unit (24, 48B, 512KiB, 2MB, 3.1GB)", s.Value)
		}
		return float64(b), nil
	}
	return 0, p.errf(s, path, "want a byte size (24, 48B, 512KiB, 2MB, 3.1GB), got %q", s.Value)
}

func (p *specParser) numbers(n *yaml.Node, path string, byteValues bool) ([]float64, error) {
	items, err := p.sequence(n, path)
	if err != nil {
		return nil, err
	}
	out := make([]float64, 0, len(items))
	for i, it := range items {
		var v float64
		if byteValues {
			v, err = p.bytesValue(it, fmt.Sprintf("%s[%d]", path, i))
		} else {
			v, err = p.number(it, fmt.Sprintf("%s[%d]", path, i))
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (p *specParser) parse(data []byte) (*Spec, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := specDecode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, p.errf(nil, "", "empty document")
		}
		return nil, p.errf(nil, "", "not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra yaml.Node
	if err := specDecode(dec, &extra); !errors.Is(err, io.EOF) {
		return nil, p.errf(&extra, "", "want a single YAML document")
	}
	root := &doc
	p.aliases = newAliasBudget(root)
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) != 1 {
			return nil, p.errf(root, "", "empty document")
		}
		root = root.Content[0]
	}
	s := &Spec{}
	if err := parseSection(p, root, "", specTopKeys, s); err != nil {
		return nil, err
	}
	return s, nil
}

// specDecode runs the YAML decoder, turning a panic inside it into an error.
func specDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml decoder failed: %v", r)
		}
	}()
	return dec.Decode(n)
}

func (p *specParser) list(n *yaml.Node, path string, each func(*yaml.Node, string) error) error {
	items, err := p.sequence(n, path)
	if err != nil {
		return err
	}
	for i, it := range items {
		ip := fmt.Sprintf("%s[%d]", path, i)
		p.lines[ip] = it.Line
		if err := each(it, ip); err != nil {
			return err
		}
	}
	return nil
}

func (p *specParser) allocate(n *yaml.Node, path string, ph *Phase) error {
	s, err := p.scalar(n, path)
	if err != nil {
		return err
	}
	if f, ok := percentage(s); ok {
		if !(f > 0 && f <= 1) {
			return p.errf(s, path, "bad percentage %q: want a share of the spec's allocate in (0%%, 100%%]", s.Value)
		}
		ph.AllocateFraction = f
		return nil
	}
	v, err := p.bytesValue(s, path)
	ph.AllocateBytes = specBytes(v)
	return err
}

func (p *specParser) dist(n *yaml.Node, path string, lifetime bool) (Dist, error) {
	var d Dist
	r, err := p.resolve(n, path)
	if err != nil {
		return d, err
	}
	what := "size"
	if lifetime {
		what = "lifetime"
	}
	if r.Kind == yaml.ScalarNode {
		if k, ok := lookupDistKind(r.Value); ok && r.ShortTag() == "!!str" {
			if k.lifetimeOnly && !lifetime {
				return d, p.errf(r, path, "distribution %q is for lifetimes, not sizes (size distributions: %s)", r.Value, strings.Join(specDistKinds(false), ", "))
			}
			if !k.bare {
				return d, p.errf(r, path, "distribution %q needs parameters: write {dist: %s, %s: ...}", r.Value, r.Value, k.params[0])
			}
			d.Kind = r.Value
			return d, nil
		}
		v, err := p.bytesValue(r, path)
		if err != nil {
			if se, ok := errors.AsType[*Error](err); ok && r.ShortTag() == "!!str" && !startsWithDigit(r.Value) {
				se.Msg = fmt.Sprintf("unknown %s distribution %q (want a byte size or one of: %s)", what, r.Value, strings.Join(specDistKinds(lifetime), ", "))
			}
			return d, err
		}
		d.Kind, d.ValueBytes = distFixed, v
		return d, nil
	}
	r, err = p.resolve(r, path)
	if err != nil {
		return d, err
	}
	if r.Kind != yaml.MappingNode {
		return d, p.errf(r, path, "want a %s distribution ({dist: NAME, ...}) or a byte size, got %s", what, specNodeKind(r))
	}
	// Find the kind first, so unknown keys can be reported against it.
	var kindNode *yaml.Node
	for i := 0; i+1 < len(r.Content); i += 2 {
		if k := r.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "dist" {
			kindNode = r.Content[i+1]
		}
	}
	if kindNode == nil {
		return d, p.errf(r, path, "missing key \"dist\" (one of: %s)", strings.Join(specDistKinds(lifetime), ", "))
	}
	kind, err := p.str(kindNode, specJoin(path, "dist"))
	if err != nil {
		return d, err
	}
	k, ok := lookupDistKind(kind)
	if !ok {
		return d, p.errf(kindNode, specJoin(path, "dist"), "unknown %s distribution %q (want one of: %s)", what, kind, strings.Join(specDistKinds(lifetime), ", "))
	}
	if k.lifetimeOnly && !lifetime {
		return d, p.errf(kindNode, specJoin(path, "dist"), "distribution %q is for lifetimes, not sizes (size distributions: %s)", kind, strings.Join(specDistKinds(false), ", "))
	}
	d.Kind = kind
	if err := parseSection(p, r, path, k.keys(), &d); err != nil {
		if se, ok := errors.AsType[*Error](err); ok && strings.HasPrefix(se.Msg, "unknown key") {
			se.Msg = strings.Replace(se.Msg, "(known keys:", fmt.Sprintf("(distribution %s takes:", kind), 1)
		}
		return d, err
	}
	return d, nil
}

func startsWithDigit(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '.')
}

func specNodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	case yaml.DocumentNode:
		return "a document"
	}
	return "an alias"
}

func specJoin(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// specBytes converts a validated non-negative byte count to uint64, saturating.
func specBytes(v float64) uint64 {
	if v >= float64(math.MaxUint64) {
		return math.MaxUint64
	}
	return uint64(math.Round(v))
}

// fraction reads a number or a percentage ("30%") as a fraction.
func (p *specParser) fraction(n *yaml.Node, path string) (float64, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return 0, err
	}
	if f, ok := percentage(s); ok {
		if math.IsNaN(f) {
			return 0, p.errf(s, path, "bad percentage %q", s.Value)
		}
		return f, nil
	}
	return p.number(s, path)
}

// percentage reads a string scalar ending in "%" as a fraction; ok is false for any other
// scalar. A percentage that does not parse, or is not finite, gives NaN.
func percentage(s *yaml.Node) (f float64, ok bool) {
	v := strings.TrimSpace(s.Value)
	if s.ShortTag() != "!!str" || !strings.HasSuffix(v, "%") {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(v, "%")), 64)
	if err != nil || math.IsInf(f, 0) {
		return math.NaN(), true
	}
	return f / 100, true
}
