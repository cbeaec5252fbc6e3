package spec

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/gctune/gctune/profile"
)

// TestSpecErrorOrderDeterministic validates a spec with several bad parameters in one
// distribution 20 times: the error reported must be the same every time (not picked by map
// iteration order), and the first bad parameter in the kind table's order.
func TestSpecErrorOrderDeterministic(t *testing.T) {
	bad := func() *Spec {
		return &Spec{
			Name:    "go",
			Classes: []Class{{Name: "A", Size: &Dist{Kind: "fixed", ValueBytes: 32}}},
			Phases: []Phase{{Name: "p", AllocateBytes: 1 << 20, Mix: []Mix{{Class: "A", Share: 1,
				Lifetime: Dist{Kind: "normal", MinBytes: math.Inf(1), MaxBytes: math.NaN(),
					MeanBytes: math.Inf(1), StdDevBytes: math.NaN()}}}}},
		}
	}
	const want = "spec phases[0].mix[0].lifetime.min: +Inf: want a finite, non-negative number"
	for range 20 {
		err := bad().Validate()
		require.Error(t, err)
		assert.Equal(t, want, err.Error())
	}
}

// checkKeyTable fails unless every key of a table has a parser and a unique name, and the known
// list derived from the table is want (today's order, which error messages show).
func checkKeyTable[T any](t *testing.T, section string, table []specKey[T], want []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, k := range table {
		assert.NotNil(t, k.parse, "%s: key %q has no parser", section, k.name)
		assert.False(t, seen[k.name], "%s: key %q twice", section, k.name)
		seen[k.name] = true
	}
	assert.Equal(t, want, keyNames(table), section)
}

// TestSpecKeyTables pins every section's keys and checks that each has a parser, and that each
// distribution kind's parameters all have an entry in distParams (a parameter listed without
// one would be refused as unknown).
func TestSpecKeyTables(t *testing.T) {
	checkKeyTable(t, "top level", specTopKeys, []string{"name", "description", "resolution", "allocate", "reported", "classes", "phases"})
	checkKeyTable(t, "reported", reportedKeys, []string{"scavenges", "fullGCs", "runSeconds"})
	checkKeyTable(t, "classes", classKeys, []string{"name", "size", "pointers"})
	checkKeyTable(t, "phases", phaseKeys, []string{"name", "allocate", "mix", "large", "growing", "containers"})
	checkKeyTable(t, "mix", mixKeys, []string{"class", "share", "size", "lifetime", "resolution", "storedInto", "heldBy", "site"})
	checkKeyTable(t, "storedInto", storedIntoKeys, []string{"container", "from", "for", "at"})
	checkKeyTable(t, "large", largeKeys, []string{"class", "size", "count", "lifetime", "at", "every", "site"})
	checkKeyTable(t, "growing", growingKeys, []string{"class", "count", "from", "to", "factor", "fill", "lifetime", "container", "name", "site"})
	checkKeyTable(t, "containers", containerKeys, []string{"class", "slots", "size", "count", "lifetime", "at", "receives", "oldSpace", "name", "immediates", "site"})

	params := make([]specKey[Dist], len(distParams))
	for i, dp := range distParams {
		params[i] = dp.specKey
		assert.NotNil(t, dp.isSet, dp.name)
	}
	checkKeyTable(t, "distribution parameters", params, []string{"value", "min", "max", "mean", "median", "sigma", "stddev", "shape", "scale", "alpha", "values", "weights", "fraction", "phase"})

	taken := map[string]bool{}
	var kinds []specKey[Dist]
	for _, k := range distKinds {
		assert.NotNil(t, k.sampler, "kind %s has no sampler set-up", k.name)
		assert.True(t, k.bare || len(k.params) > 0, "kind %s can be neither bare nor given parameters", k.name)
		checkKeyTable(t, "distribution "+k.name, k.keys(), append([]string{"dist"}, k.params...))
		for _, p := range k.params {
			taken[p] = true
		}
		kinds = append(kinds, specKey[Dist]{k.name, func(*specParser, specField, *Dist) error { return nil }})
	}
	checkKeyTable(t, "distribution kinds", kinds, []string{"fixed", "uniform", "exponential", "lognormal", "normal", "gamma", "weibull", "pareto", "choice", "immediate", "until-end", "until-phase-end", "fraction-of-run"})
	for _, dp := range distParams {
		assert.True(t, taken[dp.name], "no distribution kind takes %q", dp.name)
	}
	assert.Equal(t, []string{"fixed", "uniform", "exponential", "lognormal", "normal", "gamma", "weibull", "pareto", "choice"}, specDistKinds(false))
	assert.Equal(t, keyNames(kinds), specDistKinds(true))
}

// TestSpecDistParamsParse gives each distribution kind each of its parameters alone and checks
// that the parser stores it (the parameter reads as set, and no other does).
func TestSpecDistParamsParse(t *testing.T) {
	values := map[string]string{"values": "[8, 16]", "weights": "[1, 2]", "phase": "p"}
	for _, k := range distKinds {
		for _, name := range k.params {
			v, ok := values[name]
			if !ok {
				v = "3"
			}
			doc := fmt.Sprintf("{dist: %s, %s: %s}", k.name, name, v)
			var n yaml.Node
			require.NoError(t, yaml.Unmarshal([]byte(doc), &n), doc)
			p := &specParser{file: "t", lines: map[string]int{}}
			p.aliases = newAliasBudget(&n)
			d, err := p.dist(n.Content[0], "d", true)
			require.NoError(t, err, doc)
			for _, dp := range distParams {
				assert.Equal(t, dp.name == name, dp.isSet(&d), "%s: parameter %s", doc, dp.name)
			}
		}
	}
}

// specEveryKey gives every key of every section (distributions aside) a non-zero value.
const specEveryKey = `name: all
description: every key
resolution: 0.5
allocate: 2MB
reported: {scavenges: 3, fullGCs: 1, runSeconds: 2.5}
classes:
  - {name: A, size: 24, pointers: false}
phases:
  - name: p
    allocate: 1MB
    mix:
      - {class: A, share: 1, size: 32, lifetime: until-end, resolution: 0.25,
         storedInto: {container: c, from: 10%, for: 50%, at: start}, heldBy: B, site: A>>#m}
    large:
      - {class: A, size: 1MiB, count: 2, lifetime: until-end, at: even, every: 100KB, site: A>>#l}
    growing:
      - {class: A, count: 2, from: 1KB, to: 8KB, factor: 2, fill: 6KB, lifetime: until-end, container: true, name: g, site: A>>#g}
    containers:
      - {class: A, slots: 10, size: 96, count: 2, lifetime: until-end, at: end, receives: life,
         oldSpace: true, name: c, immediates: 25%, site: A>>#c}
`

// TestSpecEveryKeyParsed parses a spec giving every section key a value and checks that each
// lands in its field: every exported field of every section is set (a key whose parser stored
// nothing, or into the wrong field, leaves one zero).
func TestSpecEveryKeyParsed(t *testing.T) {
	p := &specParser{file: "t", lines: map[string]int{}}
	s, err := p.parse([]byte(specEveryKey))
	require.NoError(t, err)
	assert.Equal(t, 0.0, s.Phases[0].AllocateFraction, "allocate in bytes")
	s.Phases[0].AllocateFraction = 1 // the percentage form is TestParseSpecShorthands'
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		for i := range v.NumField() {
			f, ft := v.Field(i), v.Type().Field(i)
			if !ft.IsExported() {
				continue
			}
			p := path + "." + ft.Name
			assert.False(t, f.IsZero(), "%s is not set", p)
			switch {
			case ft.Type == reflect.TypeFor[Dist]() || ft.Type == reflect.TypeFor[*Dist]():
			case f.Kind() == reflect.Struct:
				walk(f, p)
			case f.Kind() == reflect.Pointer && f.Elem().Kind() == reflect.Struct:
				walk(f.Elem(), p)
			case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct:
				for j := range f.Len() {
					walk(f.Index(j), fmt.Sprintf("%s[%d]", p, j))
				}
			}
		}
	}
	walk(reflect.ValueOf(*s), "spec")
}

// TestProfileValidateErrorOrder checks that a profile with several short columns reports the
// same one every time (the first in column order), not one picked by map iteration order.
func TestProfileValidateErrorOrder(t *testing.T) {
	for range 20 {
		p := &profile.Profile{Birth: []uint64{1, 2}, Class: []uint32{0, 0}, Meta: profile.Meta{SamplingRate: 1}}
		assert.EqualError(t, p.Validate(), "profile: invalid profile: size column has 0 entries, birth has 2")
	}
}
