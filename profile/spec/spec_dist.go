package spec

import (
	"math/rand/v2"

	"gopkg.in/yaml.v3"
)

// distParam is one parameter key of a distribution mapping ({dist: KIND, KEY: VALUE}): its
// parser, whether a Dist sets it, and, for the numeric ones, the field (checked finite and
// non-negative by the validator).
type distParam struct {
	specKey[Dist]
	isSet  func(d *Dist) bool
	number func(d *Dist) *float64 // nil for values, weights and phase
}

// distFloat is a numeric distribution parameter: a byte quantity when inBytes, else a plain
// number.
func distFloat(name string, inBytes bool, at func(d *Dist) *float64) distParam {
	read := (*specParser).number
	if inBytes {
		read = (*specParser).bytesValue
	}
	return distParam{
		specKey: valueKey(name, read, at),
		isSet:   func(d *Dist) bool { return *at(d) != 0 },
		number:  at,
	}
}

// distParams are every distribution parameter, in the order the validator checks them.
var distParams = []distParam{
	distFloat("value", true, func(d *Dist) *float64 { return &d.ValueBytes }),
	distFloat("min", true, func(d *Dist) *float64 { return &d.MinBytes }),
	distFloat("max", true, func(d *Dist) *float64 { return &d.MaxBytes }),
	distFloat("mean", true, func(d *Dist) *float64 { return &d.MeanBytes }),
	distFloat("median", true, func(d *Dist) *float64 { return &d.MedianBytes }),
	distFloat("sigma", false, func(d *Dist) *float64 { return &d.Sigma }),
	distFloat("stddev", true, func(d *Dist) *float64 { return &d.StdDevBytes }),
	distFloat("shape", false, func(d *Dist) *float64 { return &d.Shape }),
	distFloat("scale", true, func(d *Dist) *float64 { return &d.ScaleBytes }),
	distFloat("alpha", false, func(d *Dist) *float64 { return &d.Alpha }),
	{
		specKey: specKey[Dist]{"values", func(p *specParser, f specField, d *Dist) (err error) {
			d.ValuesBytes, err = p.numbers(f.node, f.path, true)
			return err
		}},
		isSet: func(d *Dist) bool { return len(d.ValuesBytes) != 0 },
	},
	{
		specKey: specKey[Dist]{"weights", func(p *specParser, f specField, d *Dist) (err error) {
			d.Weights, err = p.numbers(f.node, f.path, false)
			return err
		}},
		isSet: func(d *Dist) bool { return len(d.Weights) != 0 },
	},
	distFloat("fraction", false, func(d *Dist) *float64 { return &d.Fraction }),
	{
		specKey: valueKey("phase", (*specParser).str, func(d *Dist) *string { return &d.Phase }),
		isSet:   func(d *Dist) bool { return d.Phase != "" },
	},
}

// distKind is one distribution kind: the parameter keys it takes besides "dist" (in the order
// error messages list them; each names an entry of distParams), whether it is for lifetimes
// only, whether it may be written as a bare name without parameters ("lifetime: until-end"),
// how its parameters are checked (spec_validate.go; nil: no check beyond their being finite
// and non-negative) and how a sampler is set up for it (generate_dist.go).
type distKind struct {
	name         string
	params       []string
	lifetimeOnly bool
	bare         bool
	check        func(c *distCheck) error
	sampler      func(g *genSampler, d *Dist, lifetime bool, src rand.Source)
}

// distKinds are the distribution kinds, sizes' first, in the order error messages list them.
var distKinds = []distKind{
	// name, params, lifetimeOnly, bare, check, sampler
	{distFixed, []string{"value"}, false, false, checkFixed, samplerFixed},
	{distUniform, []string{"min", "max"}, false, true, checkUniform, samplerUniform},
	{distExponential, []string{"mean", "min", "max"}, false, false, checkMean, samplerExponential},
	{distLognormal, []string{"median", "sigma", "min", "max"}, false, false, checkLognormal, samplerLognormal},
	{distNormal, []string{"mean", "stddev", "min", "max"}, false, false, checkMean, samplerNormal},
	{distGamma, []string{"mean", "shape", "min", "max"}, false, false, checkGamma, samplerGamma},
	{distWeibull, []string{"scale", "shape", "min", "max"}, false, false, checkWeibull, samplerWeibull},
	{distPareto, []string{"scale", "alpha", "min", "max"}, false, false, checkPareto, samplerPareto},
	{distChoice, []string{"values", "weights", "min", "max"}, false, false, checkChoice, samplerChoice},
	{distImmediate, nil, true, true, nil, samplerOf(genImmediate)},
	{distUntilEnd, nil, true, true, nil, samplerOf(genUntilEnd)},
	{distUntilPhaseEnd, []string{"phase"}, true, true, checkUntilPhaseEnd, samplerOf(genPhaseEnd)},
	{distFractionOfRun, []string{"fraction"}, true, false, checkFractionOfRun, samplerFraction},
}

// lookupDistKind finds a distribution kind by name.
func lookupDistKind(name string) (distKind, bool) {
	for _, k := range distKinds {
		if k.name == name {
			return k, true
		}
	}
	return distKind{}, false
}

// specDistKinds returns the kinds allowed for sizes (lifetime false) or lifetimes.
func specDistKinds(lifetime bool) []string {
	var out []string
	for _, k := range distKinds {
		if lifetime || !k.lifetimeOnly {
			out = append(out, k.name)
		}
	}
	return out
}

// keys is the key table of a distribution mapping of this kind: "dist" (read before the
// mapping is walked) and the kind's parameters. A parameter name without an entry in
// distParams is left out, so it is refused as unknown rather than ignored (and
// TestSpecKeyTables fails).
func (k distKind) keys() []specKey[Dist] {
	out := []specKey[Dist]{{"dist", func(*specParser, specField, *Dist) error { return nil }}}
	for _, name := range k.params {
		for _, dp := range distParams {
			if dp.name == name {
				out = append(out, dp.specKey)
			}
		}
	}
	return out
}

// zeroDist reports whether d sets no parameter.
func zeroDist(d *Dist) bool {
	for _, dp := range distParams {
		if dp.isSet(d) {
			return false
		}
	}
	return true
}

// lifetime reads a lifetime distribution.
func (p *specParser) lifetime(n *yaml.Node, path string) (Dist, error) {
	return p.dist(n, path, true)
}

// size reads a size distribution.
func (p *specParser) size(n *yaml.Node, path string) (*Dist, error) {
	d, err := p.dist(n, path, false)
	if err != nil {
		return nil, err
	}
	return &d, nil
}
