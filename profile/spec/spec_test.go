package spec

import (
	"errors"
	"fmt"
	"github.com/gctune/gctune/internal/profiletest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specBase is a valid spec the error cases below break one key at a time.
const specBase = `name: base
description: a valid spec
resolution: 0.5
classes:
  - name: Foo
    size: {dist: lognormal, median: 48, sigma: 0.5, max: 4KiB}
  - name: Bar
    size: 24
phases:
  - name: one
    allocate: 1MB
    mix:
      - {class: Foo, share: 0.5, lifetime: immediate}
      - {class: Bar, share: 0.5, lifetime: {dist: exponential, mean: 10KB}}
  - name: two
    allocate: 512KiB
    mix:
      - {class: Foo, share: 1, lifetime: until-end}
    large:
      - {class: Bar, size: 1MiB, count: 2}
    containers:
      - {class: Bar, slots: 100000}
`

func TestParseSpecBase(t *testing.T) {
	s, err := Parse([]byte(specBase), "base.yaml")
	require.NoError(t, err)
	assert.Equal(t, "base", s.Name)
	assert.Equal(t, 0.5, s.Resolution)
	require.Len(t, s.Classes, 2)
	assert.Equal(t, &Dist{Kind: "lognormal", MedianBytes: 48, Sigma: 0.5, MaxBytes: 4096}, s.Classes[0].Size)
	assert.Equal(t, &Dist{Kind: "fixed", ValueBytes: 24}, s.Classes[1].Size)
	require.Len(t, s.Phases, 2)
	assert.Equal(t, uint64(1_000_000), s.Phases[0].AllocateBytes)
	assert.Equal(t, uint64(512<<10), s.Phases[1].AllocateBytes)
	assert.Equal(t, Mix{Class: "Bar", Share: 0.5, Lifetime: Dist{Kind: "exponential", MeanBytes: 10_000}}, s.Phases[0].Mix[1])
	assert.Equal(t, Dist{Kind: "until-end"}, s.Phases[1].Mix[0].Lifetime)
	assert.Equal(t, Large{Class: "Bar", Size: &Dist{Kind: "fixed", ValueBytes: 1 << 20}, Count: 2}, s.Phases[1].Large[0])
	assert.Equal(t, Container{Class: "Bar", Slots: 100000}, s.Phases[1].Containers[0])
	assert.Equal(t, "base.yaml", s.Origin())
}

// TestParseSpecErrors breaks specBase one way at a time and checks that the error names the
// key path (and the line) and says what is wrong.
func TestParseSpecErrors(t *testing.T) {
	cases := []struct {
		name     string
		old, new string // replace old by new in specBase ("" old: append new)
		want     string // substring of the error
	}{
		{"unknown top-level key", "resolution: 0.5", "resolution: 0.5\ncolour: blue", `spec base.yaml:4: unknown key "colour" (known keys: name, description, resolution, allocate, reported, classes, phases)`},
		{"unknown mix key", "share: 0.5, lifetime: immediate", "share: 0.5, colour: red, lifetime: immediate", `base.yaml:13: phases[0].mix[0]: unknown key "colour"`},
		{"unknown dist key", "mean: 10KB}", "mean: 10KB, sigma: 2}", `phases[0].mix[1].lifetime: unknown key "sigma" (distribution exponential takes: dist, mean, min, max)`},
		{"unknown class key", "  - name: Bar\n", "  - name: Bar\n    pinned: true\n", `classes[1]: unknown key "pinned"`},
		{"duplicate key", "name: base\n", "name: base\nname: again\n", `key "name" given twice`},
		{"shares do not sum to 1", "share: 0.5, lifetime: immediate", "share: 0.47, lifetime: immediate", "phases[0].mix: shares sum to 0.97, want 1"},
		{"share above 1", "share: 1, lifetime: until-end", "share: 1.5, lifetime: until-end", "phases[1].mix[0].share: 1.5 is not a share"},
		{"negative size", "size: 24\n", "size: -24\n", "classes[1].size: must not be negative"},
		{"negative number", "sigma: 0.5", "sigma: -0.5", "classes[0].size.sigma: must not be negative"},
		{"negative allocate", "allocate: 1MB", "allocate: -1MB", "phases[0].allocate: must not be negative"},
		{"bad unit", "allocate: 1MB", "allocate: 1 megabyte", `phases[0].allocate: bad byte size "1 megabyte"`},
		{"bad unit in dist", "mean: 10KB", "mean: 10 parsecs", `phases[0].mix[1].lifetime.mean: bad byte size "10 parsecs"`},
		{"unknown distribution", "dist: lognormal", "dist: lognormol", `classes[0].size.dist: unknown size distribution "lognormol" (want one of: fixed, uniform, exponential, lognormal`},
		{"unknown lifetime shorthand", "lifetime: until-end", "lifetime: forever", `phases[1].mix[0].lifetime: unknown lifetime distribution "forever"`},
		{"lifetime kind as size", "size: 24\n", "size: until-end\n", `classes[1].size: distribution "until-end" is for lifetimes, not sizes`},
		{"missing dist", "{dist: exponential, mean: 10KB}", "{mean: 10KB}", `phases[0].mix[1].lifetime: missing key "dist"`},
		{"missing parameter", "{dist: exponential, mean: 10KB}", "{dist: exponential}", "phases[0].mix[1].lifetime.mean: missing or zero: distribution exponential needs mean > 0"},
		{"parameterised shorthand", "{dist: exponential, mean: 10KB}", "exponential", `distribution "exponential" needs parameters`},
		{"unknown class", "class: Foo, share: 1", "class: Baz, share: 1", `phases[1].mix[0].class: unknown class "Baz" (declared: Foo, Bar)`},
		{"missing lifetime", "{class: Foo, share: 0.5, lifetime: immediate}", "{class: Foo, share: 0.5}", "phases[0].mix[0].lifetime: missing"},
		{"wrong type", "count: 2", "count: two", `phases[1].large[0].count: want a number, got "two"`},
		{"fractional count", "count: 2", "count: 2.5", "phases[1].large[0].count: want a whole number"},
		{"list expected", "  - name: one\n", "  - name: one\n    large: {class: Bar}\n", "phases[0].large: want a list, got a mapping"},
		{"class declared twice", "  - name: Bar\n", "  - name: Foo\n", `classes[1].name: class "Foo" declared twice`},
		{"phase named twice", "  - name: two\n", "  - name: one\n", `phases[1].name: phase "one" named twice`},
		{"no name", "name: base\n", "", "name: missing"},
		{"resolution too big", "resolution: 0.5", "resolution: 2", "resolution: 2 is not a number of records per real object"},
		{"uniform size without max", "size: 24\n", "size: {dist: uniform, min: 16}\n", "classes[1].size.max: missing: a uniform size needs max"},
		{"min above max", "max: 4KiB}", "max: 4KiB, min: 8KiB}", "classes[0].size.min: 8192 is above max (4096)"},
		{"size too big", "size: 24\n", "size: 5GiB\n", "classes[1].size.value: 5.36871e+09 bytes is more than"},
		{"placement", "count: 2}", "count: 2, at: middle}", `phases[1].large[0].at: unknown placement "middle"`},
		{"every does not fit", "count: 2}", "count: 2, every: 1MB}", "phases[1].large[0].every: 2 objects every 1000000 bytes need 2e+06 bytes, but the phase allocates 524288"},
		{"receives", "slots: 100000}", "slots: 100000, receives: sometimes}", `phases[1].containers[0].receives: unknown "sometimes" (want phase, life or none)`},
		{"slots and size", "slots: 100000}", "slots: 100000, size: 1MB}", "phases[1].containers[0].slots: give slots or size, not both"},
		{"stored into an unknown container", "{class: Foo, share: 1, lifetime: until-end}", "{class: Foo, share: 1, lifetime: until-end, storedInto: {container: rows}}", `phases[1].mix[0].storedInto.container: no growing or containers entry is named "rows"`},
		{"stored at and from", "{class: Foo, share: 1, lifetime: until-end}", "{class: Foo, share: 1, lifetime: until-end, storedInto: {container: t, at: one, from: 0.5}}\n    growing:\n      - {class: Bar, count: 1, from: 96, to: 1MB, name: t}", "phases[1].mix[0].storedInto.at: give at (a phase) or from and for, not both"},
		{"stored into at an unknown phase", "{class: Foo, share: 1, lifetime: until-end}", "{class: Foo, share: 1, lifetime: until-end, storedInto: {container: t, at: six}}\n    growing:\n      - {class: Bar, count: 1, from: 96, to: 1MB, name: t}", `phases[1].mix[0].storedInto.at: no phase is named "six"`},
		{"stored for too long", "{class: Foo, share: 1, lifetime: until-end}", "{class: Foo, share: 1, lifetime: until-end, storedInto: {container: t, from: 0.5, for: 0.8}}\n    growing:\n      - {class: Bar, count: 1, from: 96, to: 1MB, name: t}", "phases[1].mix[0].storedInto.for: 0.8: want a fraction of the lifetime in (0, 0.5]"},
		{"container named twice", "slots: 100000}", "slots: 100000, name: t}\n      - {class: Bar, slots: 10, name: t}", `phases[1].containers[1].name: container "t" named twice`},
		{"immediates", "slots: 100000}", "slots: 100000, immediates: 2}", "phases[1].containers[0].immediates: 2 is not a share of the slots in [0, 1]"},
		{"zero share", "lifetime: immediate}", "lifetime: immediate}\n      - {class: Bar, share: 0, lifetime: immediate}", "phases[0].mix[1].share: 0 is not a share"},
		{"until-phase-end of an earlier phase", "lifetime: until-end}", "lifetime: {dist: until-phase-end, phase: one}}", `phases[1].mix[0].lifetime.phase: phase "one" ends before this phase ("two") starts`},
		{"until-phase-end of an unknown phase", "lifetime: until-end}", "lifetime: {dist: until-phase-end, phase: six}}", `phases[1].mix[0].lifetime.phase: unknown phase "six"`},
		{"mix without allocate", "    allocate: 512KiB\n", "", "phases[1].allocate: missing: the phase has a mix but allocates nothing"},
		{"allocate without mix", "    mix:\n      - {class: Foo, share: 1, lifetime: until-end}\n", "", "phases[1].mix: missing: the phase allocates 524288 bytes but has no mix"},
		{"percentages without total", "allocate: 1MB", "allocate: 50%", "allocate: missing: phases give their allocation as percentages"},
		{"bad percentage", "allocate: 1MB", "allocate: 150%", `phases[0].allocate: bad percentage "150%"`},
		{"percentages do not sum", "resolution: 0.5", "resolution: 0.5\nallocate: 2MB", "allocate: the spec gives a total allocation but phases give bytes"},
		{"growing factor", "    containers:\n", "    growing:\n      - {class: Bar, count: 1, from: 16, to: 1GB, factor: 1.01}\n    containers:\n", "phases[1].growing[0].factor: growing from 16 to 1000000000 bytes by 1.01 takes more than 64 steps"},
		{"growing from", "    containers:\n", "    growing:\n      - {class: Bar, count: 1, from: 8, to: 1MB}\n    containers:\n", "phases[1].growing[0].from: 8 bytes is below the 16-byte minimum object"},
		{"growing fill above to", "    containers:\n", "    growing:\n      - {class: Bar, count: 1, from: 1KiB, to: 4KiB, fill: 5KiB}\n    containers:\n", "phases[1].growing[0].fill: 5120 bytes is more than the last array (to: 4096)"},
		{"growing fill below the next-to-last", "    containers:\n", "    growing:\n      - {class: Bar, count: 1, from: 1KiB, to: 4KiB, fill: 1KiB}\n    containers:\n", "phases[1].growing[0].fill: 1024 bytes is less than the next-to-last array (2040 bytes): the last would come after the phase"},
		{"boolean", "slots: 100000}", "slots: 100000, oldSpace: maybe}", `phases[1].containers[0].oldSpace: want true or false, got "maybe"`},
		{"choice weights", "size: 24\n", "size: {dist: choice, values: [16, 32], weights: [1]}\n", "classes[1].size.weights: 1 weights for 2 values"},
		{"inf", "sigma: 0.5", "sigma: .inf", `classes[0].size.sigma: want a finite number, got ".inf"`},
		{"nan", "sigma: 0.5", "sigma: .nan", `classes[0].size.sigma: want a finite number, got ".nan"`},
		{"absurd run", "allocate: 1MB", "allocate: 9000000TB", "phases[0].allocate"},
		{"not yaml", "name: base\n", "name: [base\n", "spec base.yaml: not valid YAML"},
		{"two documents", "", "---\nname: again\n", "want a single YAML document"},
		{"merge key", "      - {class: Foo, share: 1, lifetime: until-end}\n", "      - {<<: {class: Foo}, share: 1, lifetime: until-end}\n", `phases[1].mix[0]: unknown key "<<"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := specBase + c.new
			if c.old != "" {
				require.Contains(t, specBase, c.old, "test case does not apply")
				src = strings.Replace(specBase, c.old, c.new, 1)
			}
			_, err := Parse([]byte(src), "base.yaml")
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.True(t, strings.HasPrefix(err.Error(), "spec base.yaml"), err.Error())
			assert.Contains(t, err.Error(), c.want)
			_, isSpecErr := errors.AsType[*Error](err)
			assert.True(t, isSpecErr)
		})
	}
}

func TestParseSpecEmpty(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n"} {
		_, err := Parse([]byte(src), "empty.yaml")
		assert.ErrorIs(t, err, ErrInvalid, "%q", src)
	}
	_, err := Parse([]byte("- a\n- b\n"), "list.yaml")
	assert.ErrorContains(t, err, "want a mapping")
}

func TestParseSpecShorthands(t *testing.T) {
	src := `name: short
allocate: 10MB
classes:
  - name: A
    size: 40
phases:
  - name: p
    allocate: 25%
    mix:
      - {class: A, share: 1, lifetime: 2MB}
  - name: q
    allocate: 75%
    mix:
      - {class: A, share: 0.5, size: {dist: choice, values: [16, 1KiB], weights: [3, 1]}, lifetime: {dist: uniform}}
      - {class: A, share: 0.5, lifetime: until-phase-end, resolution: 1}
    large:
      - {class: A, size: 1MB, count: 4, every: 1MB, lifetime: {dist: fraction-of-run, fraction: 0.1}}
    growing:
      - {class: A, count: 2, from: 1KiB, to: 1MiB, container: true}
    containers:
      - {class: A, size: 64KiB, count: 2, at: even, receives: life, oldSpace: true, lifetime: {dist: fixed, value: 1MB}}
`
	s, err := Parse([]byte(src), "")
	require.NoError(t, err)
	assert.Equal(t, uint64(10_000_000), s.AllocateBytes)
	assert.Equal(t, 0.25, s.Phases[0].AllocateFraction)
	assert.Equal(t, Dist{Kind: "fixed", ValueBytes: 2_000_000}, s.Phases[0].Mix[0].Lifetime)
	assert.Equal(t, Dist{Kind: "uniform"}, s.Phases[1].Mix[0].Lifetime)
	assert.Equal(t, &Dist{Kind: "choice", ValuesBytes: []float64{16, 1024}, Weights: []float64{3, 1}}, s.Phases[1].Mix[0].Size)
	assert.Equal(t, 1.0, s.Phases[1].Mix[1].Resolution)
	assert.Equal(t, uint64(1_000_000), s.Phases[1].Large[0].EveryBytes)
	assert.Equal(t, Growing{Class: "A", Count: 2, FromBytes: 1024, ToBytes: 1 << 20, Container: true}, s.Phases[1].Growing[0])
	assert.Equal(t, "workload:short", s.Origin())
	p, err := s.Generate(GenerateOptions{Seed: 3})
	require.NoError(t, err)
	require.NoError(t, p.Validate())
	assert.Equal(t, "workload:short", p.Meta.Source)
}

// TestSpecValidateInGo checks that a Spec built in Go is validated by Generate, with paths but
// no lines.
func TestSpecValidateInGo(t *testing.T) {
	s := &Spec{
		Name:    "go",
		Classes: []Class{{Name: "A", Size: &Dist{Kind: "fixed", ValueBytes: 32}}},
		Phases: []Phase{{Name: "p", AllocateBytes: 1 << 20, Mix: []Mix{
			{Class: "A", Share: 1, Lifetime: Dist{Kind: "exponential", MeanBytes: 1000, Sigma: 2}},
		}}},
	}
	_, err := s.Generate(GenerateOptions{})
	require.ErrorIs(t, err, ErrInvalid)
	assert.EqualError(t, err, "spec phases[0].mix[0].lifetime.sigma: distribution exponential does not take sigma")
	s.Phases[0].Mix[0].Lifetime.Sigma = 0
	p, err := s.Generate(GenerateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "workload:go", p.Meta.Source)
	assert.Equal(t, uint32(1), p.Weight[0], "resolution 0 means one record per object")
}

func TestLoadSpec(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "base.yaml")
	require.NoError(t, os.WriteFile(path, []byte(specBase), 0o644))
	s, err := Load(path)
	require.NoError(t, err)
	assert.Equal(t, path, s.Origin())
	p, err := s.Generate(GenerateOptions{})
	require.NoError(t, err)
	assert.Equal(t, path, p.Meta.Source)

	_, err = Load(filepath.Join(dir, "missing.yaml"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, "spec: load spec:")

	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: x\nfoo: 1\n"), 0o644))
	_, err = Load(bad)
	assert.ErrorContains(t, err, "spec "+bad+`:2: unknown key "foo"`)
}

// TestSpecFiles runs the spec files in testdata/specs: a file whose first line is
// "# want-error: TEXT" must fail with an error containing TEXT; any other file must parse and
// generate a valid Profile at its default resolution.
func TestSpecFiles(t *testing.T) {
	files := profiletest.ReadTestdata(t, "specs", "*.yaml")
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f.Path), func(t *testing.T) {
			first, _, _ := strings.Cut(string(f.Data), "\n")
			s, err := Load(f.Path)
			if want, ok := strings.CutPrefix(first, "# want-error: "); ok {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrInvalid)
				assert.Contains(t, err.Error(), strings.TrimSpace(want))
				return
			}
			require.NoError(t, err)
			p, err := s.Generate(GenerateOptions{Seed: 1})
			require.NoError(t, err)
			require.NoError(t, p.Validate())
		})
	}
}

// TestSpecDocsExample checks that the annotated example of docs/workloads.md parses and is the
// same as testdata/specs/example.yaml, so the documentation cannot drift from the format.
func TestSpecDocsExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "workloads.md"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("docs/workloads.md not found")
	}
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)<!-- example.yaml -->\n```yaml\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, m, "docs/workloads.md has no example.yaml block")
	want, err := os.ReadFile(filepath.Join("testdata", "specs", "example.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(m[1]), "docs/workloads.md's example differs from testdata/specs/example.yaml")
	_, err = Parse(m[1], "workloads.md")
	require.NoError(t, err)
}

func ExampleParse() {
	spec, err := Parse([]byte(`
name: tiny
classes:
  - name: Point
    size: 24
  - name: Node
    size: {dist: lognormal, median: 64, sigma: 0.5, max: 1KiB}
phases:
  - name: run
    allocate: 1MB
    mix:
      - {class: Point, share: 0.9, lifetime: immediate}
      - {class: Node, share: 0.1, lifetime: until-end}
`), "tiny.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := spec.Generate(GenerateOptions{Seed: 1, Resolution: 0.1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Meta.Source, p.Meta.EndBytes, p.Weight[0])
	// Output: tiny.yaml 1000000 10
}

func ExampleParse_error() {
	_, err := Parse([]byte(`
name: bad
classes: [{name: A, size: 16}]
phases:
  - name: run
    allocate: 1MB
    mix:
      - {class: A, share: 0.5, lifetime: immediate}
      - {class: A, share: 0.47, lifetime: until-end}
`), "bad.yaml")
	fmt.Println(err)
	// Output: spec bad.yaml:7: phases[0].mix: shares sum to 0.97, want 1
}
