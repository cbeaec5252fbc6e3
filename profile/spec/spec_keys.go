package spec

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// specKey is one key of a spec section (a YAML mapping read into a T): its name and the parser
// that stores its value into the section. A section's keys are one table, from which both the
// "unknown key (known keys: ...)" list and the parsing derive, so a key cannot be known without
// a parser.
type specKey[T any] struct {
	name  string
	parse func(p *specParser, f specField, s *T) error
}

// keyNames lists a table's key names, in table order.
func keyNames[T any](keys []specKey[T]) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.name
	}
	return out
}

// parseSection reads the mapping n into s with the keys of table, in document order.
func parseSection[T any](p *specParser, n *yaml.Node, path string, table []specKey[T], s *T) error {
	fields, err := p.mapping(n, path, keyNames(table))
	if err != nil {
		return err
	}
	for _, f := range fields {
		i := slices.IndexFunc(table, func(k specKey[T]) bool { return k.name == f.key })
		if err := table[i].parse(p, f, s); err != nil {
			return err
		}
	}
	return nil
}

// valueKey is a key whose value read reads into the field at returns.
func valueKey[T, V any](name string, read func(*specParser, *yaml.Node, string) (V, error), at func(*T) *V) specKey[T] {
	return specKey[T]{name, func(p *specParser, f specField, s *T) (err error) {
		*at(s), err = read(p, f.node, f.path)
		return err
	}}
}

// sectionKey is a key whose value is a mapping read with table into the field at returns.
func sectionKey[T, V any](name string, table []specKey[V], at func(*T) *V) specKey[T] {
	return specKey[T]{name, func(p *specParser, f specField, s *T) error {
		return parseSection(p, f.node, f.path, table, at(s))
	}}
}

// sectionListKey is a key whose value is a list of mappings, each read with table and appended
// to the slice at returns.
func sectionListKey[T, V any](name string, table []specKey[V], at func(*T) *[]V) specKey[T] {
	return specKey[T]{name, func(p *specParser, f specField, s *T) error {
		return p.list(f.node, f.path, func(n *yaml.Node, path string) error {
			var v V
			err := parseSection(p, n, path, table, &v)
			*at(s) = append(*at(s), v)
			return err
		})
	}}
}

// byteCount reads a byte quantity as a whole number of bytes.
func (p *specParser) byteCount(n *yaml.Node, path string) (uint64, error) {
	v, err := p.bytesValue(n, path)
	return specBytes(v), err
}

// specTopKeys are the keys of a spec's top level.
var specTopKeys = []specKey[Spec]{
	valueKey("name", (*specParser).str, func(s *Spec) *string { return &s.Name }),
	valueKey("description", (*specParser).str, func(s *Spec) *string { return &s.Description }),
	valueKey("resolution", (*specParser).resolution, func(s *Spec) *float64 { return &s.Resolution }),
	valueKey("allocate", (*specParser).byteCount, func(s *Spec) *uint64 { return &s.AllocateBytes }),
	sectionKey("reported", reportedKeys, func(s *Spec) *Reported { return &s.Reported }),
	sectionListKey("classes", classKeys, func(s *Spec) *[]Class { return &s.Classes }),
	sectionListKey("phases", phaseKeys, func(s *Spec) *[]Phase { return &s.Phases }),
}

// reportedKeys are the keys of a spec's reported section.
var reportedKeys = []specKey[Reported]{
	valueKey("scavenges", (*specParser).integer, func(r *Reported) *int { return &r.Scavenges }),
	valueKey("fullGCs", (*specParser).integer, func(r *Reported) *int { return &r.FullGCs }),
	valueKey("runSeconds", (*specParser).number, func(r *Reported) *float64 { return &r.RunSeconds }),
}

// classKeys are the keys of a classes entry.
var classKeys = []specKey[Class]{
	valueKey("name", (*specParser).str, func(c *Class) *string { return &c.Name }),
	valueKey("size", (*specParser).size, func(c *Class) **Dist { return &c.Size }),
	{"pointers", func(p *specParser, f specField, c *Class) error {
		b, err := p.boolean(f.node, f.path)
		c.Pointers = &b
		return err
	}},
}

// phaseKeys are the keys of a phases entry.
var phaseKeys = []specKey[Phase]{
	valueKey("name", (*specParser).str, func(ph *Phase) *string { return &ph.Name }),
	{"allocate", func(p *specParser, f specField, ph *Phase) error { return p.allocate(f.node, f.path, ph) }},
	sectionListKey("mix", mixKeys, func(ph *Phase) *[]Mix { return &ph.Mix }),
	sectionListKey("large", largeKeys, func(ph *Phase) *[]Large { return &ph.Large }),
	sectionListKey("growing", growingKeys, func(ph *Phase) *[]Growing { return &ph.Growing }),
	sectionListKey("containers", containerKeys, func(ph *Phase) *[]Container { return &ph.Containers }),
}

// mixKeys are the keys of a phase's mix entry.
var mixKeys = []specKey[Mix]{
	valueKey("class", (*specParser).str, func(m *Mix) *string { return &m.Class }),
	valueKey("share", (*specParser).number, func(m *Mix) *float64 { return &m.Share }),
	valueKey("size", (*specParser).size, func(m *Mix) **Dist { return &m.Size }),
	valueKey("lifetime", (*specParser).lifetime, func(m *Mix) *Dist { return &m.Lifetime }),
	valueKey("resolution", (*specParser).resolution, func(m *Mix) *float64 { return &m.Resolution }),
	{"storedInto", func(p *specParser, f specField, m *Mix) error {
		m.StoredInto = &StoredInto{}
		return parseSection(p, f.node, f.path, storedIntoKeys, m.StoredInto)
	}},
	valueKey("heldBy", (*specParser).str, func(m *Mix) *string { return &m.HeldBy }),
	valueKey("site", (*specParser).str, func(m *Mix) *string { return &m.Site }),
}

// storedIntoKeys are the keys of a mix entry's storedInto mapping.
var storedIntoKeys = []specKey[StoredInto]{
	valueKey("container", (*specParser).str, func(st *StoredInto) *string { return &st.Container }),
	{"from", func(p *specParser, f specField, st *StoredInto) (err error) {
		if s, e := p.scalar(f.node, f.path); e == nil && strings.TrimSpace(s.Value) == "birth" {
			st.From = 0
			return nil
		}
		st.From, err = p.fraction(f.node, f.path)
		return err
	}},
	valueKey("for", (*specParser).fraction, func(st *StoredInto) *float64 { return &st.For }),
	valueKey("at", (*specParser).str, func(st *StoredInto) *string { return &st.At }),
}

// largeKeys are the keys of a phase's large entry.
var largeKeys = []specKey[Large]{
	valueKey("class", (*specParser).str, func(l *Large) *string { return &l.Class }),
	valueKey("size", (*specParser).size, func(l *Large) **Dist { return &l.Size }),
	valueKey("count", (*specParser).integer, func(l *Large) *int { return &l.Count }),
	valueKey("lifetime", (*specParser).lifetime, func(l *Large) *Dist { return &l.Lifetime }),
	valueKey("at", (*specParser).str, func(l *Large) *string { return &l.At }),
	valueKey("every", (*specParser).byteCount, func(l *Large) *uint64 { return &l.EveryBytes }),
	valueKey("site", (*specParser).str, func(l *Large) *string { return &l.Site }),
}

// growingKeys are the keys of a phase's growing entry.
var growingKeys = []specKey[Growing]{
	valueKey("class", (*specParser).str, func(g *Growing) *string { return &g.Class }),
	valueKey("count", (*specParser).integer, func(g *Growing) *int { return &g.Count }),
	valueKey("from", (*specParser).byteCount, func(g *Growing) *uint64 { return &g.FromBytes }),
	valueKey("to", (*specParser).byteCount, func(g *Growing) *uint64 { return &g.ToBytes }),
	valueKey("factor", (*specParser).number, func(g *Growing) *float64 { return &g.Factor }),
	valueKey("fill", (*specParser).byteCount, func(g *Growing) *uint64 { return &g.FillBytes }),
	valueKey("lifetime", (*specParser).lifetime, func(g *Growing) *Dist { return &g.Lifetime }),
	valueKey("container", (*specParser).boolean, func(g *Growing) *bool { return &g.Container }),
	valueKey("name", (*specParser).str, func(g *Growing) *string { return &g.Name }),
	valueKey("site", (*specParser).str, func(g *Growing) *string { return &g.Site }),
}

// containerKeys are the keys of a phase's containers entry.
var containerKeys = []specKey[Container]{
	valueKey("class", (*specParser).str, func(c *Container) *string { return &c.Class }),
	valueKey("slots", (*specParser).integer, func(c *Container) *int { return &c.Slots }),
	valueKey("size", (*specParser).byteCount, func(c *Container) *uint64 { return &c.SizeBytes }),
	valueKey("count", (*specParser).integer, func(c *Container) *int { return &c.Count }),
	valueKey("lifetime", (*specParser).lifetime, func(c *Container) *Dist { return &c.Lifetime }),
	valueKey("at", (*specParser).str, func(c *Container) *string { return &c.At }),
	valueKey("receives", (*specParser).str, func(c *Container) *string { return &c.Receives }),
	valueKey("oldSpace", (*specParser).boolean, func(c *Container) *bool { return &c.OldSpace }),
	valueKey("name", (*specParser).str, func(c *Container) *string { return &c.Name }),
	valueKey("immediates", (*specParser).fraction, func(c *Container) *float64 { return &c.Immediates }),
	valueKey("site", (*specParser).str, func(c *Container) *string { return &c.Site }),
}
