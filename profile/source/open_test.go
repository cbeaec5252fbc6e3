package source

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/profiletest"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/gcprof"
	"github.com/gctune/gctune/profile/spec"
)

const tinySpec = `name: tiny
description: test workload
allocate: 64KB
classes:
  - name: Temp
    size: 32
  - name: Keep
    size: 64
phases:
  - name: run
    allocate: 100%
    mix:
      - {class: Temp, share: 0.8, lifetime: immediate}
      - {class: Keep, share: 0.2, lifetime: until-end}
`

const tinyCSV = `"finalizationTimeInMicroSeconds","sizeInBytes","initializationTimeInMicroSeconds","allocatedObjectClass","survivedScavenges","survivedFullGCs","textualAllocatorMethod","textualAllocatorMethodOffset"
2160,16,1160,Fraction,0,0,NumberParser>>#makeFraction,23
3000,40,1400,NumberParser,0,0,NumberParser class>>#on:,5
3000,48,2000,ByteString,5,1,String class>>#new:,11
`

const tinyJSON = "{\n\t\"profiler\" : \"FiLiP\",\n\t\"samplingRate\" : 1,\n\t\"totalExecutionTime\" : 1900\n}"

// writeTemp writes files (name → content) into a fresh directory and returns its path.
func writeTemp(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	return dir
}

func TestOpenBundledWorkload(t *testing.T) {
	bundled := spec.Bundled()
	require.NotEmpty(t, bundled)
	name := bundled[0].Name
	p, info, err := Open(name, Options{Seed: 3, Resolution: 1e-4})
	require.NoError(t, err)
	assert.Equal(t, &Info{Kind: KindWorkload, Ref: name, Workload: name}, info)
	assert.Positive(t, p.Len())
	assert.Equal(t, "workload:"+name, p.Meta.Source)
}

func TestOpenSpecFile(t *testing.T) {
	dir := writeTemp(t, map[string]string{"tiny.yaml": tinySpec, "TINY.YML": tinySpec})
	for _, file := range []string{"tiny.yaml", "TINY.YML"} {
		path := filepath.Join(dir, file)
		p, info, err := Open(path, Options{Seed: 1})
		require.NoError(t, err)
		assert.Equal(t, &Info{Kind: KindSpec, Ref: path, Path: path, Workload: "tiny"}, info)
		assert.Positive(t, p.Len())
	}
	// Same seed, same profile; another seed, another profile.
	path := filepath.Join(dir, "tiny.yaml")
	a, _, err := Open(path, Options{Seed: 1})
	require.NoError(t, err)
	b, _, err := Open(path, Options{Seed: 1})
	require.NoError(t, err)
	c, _, err := Open(path, Options{Seed: 2})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a.Birth, c.Birth)
}

func TestOpenFiLiP(t *testing.T) {
	dir := writeTemp(t, map[string]string{"run.csv": tinyCSV, "run.json": tinyJSON, "meta.json": tinyJSON,
		"bad.csv": tinyCSV + "1,-4,0,X,0,0,m,1\n", "bad.json": tinyJSON})
	path := filepath.Join(dir, "run.csv")
	p, info, err := Open(path, Options{})
	require.NoError(t, err)
	assert.Equal(t, KindFiLiP, info.Kind)
	assert.Equal(t, path, info.Path)
	require.NotNil(t, info.FiLiP)
	assert.Equal(t, 3, info.FiLiP.Rows)
	assert.Equal(t, 3, p.Len())

	_, info, err = Open(path, Options{Clock: filip.ClockMicros, FiLiPJSONPath: filepath.Join(dir, "meta.json")})
	require.NoError(t, err)
	assert.Equal(t, filip.ClockMicros, info.FiLiP.Clock)

	bad := filepath.Join(dir, "bad.csv")
	_, _, err = Open(bad, Options{})
	assert.ErrorIs(t, err, filip.ErrBadRow)
	_, info, err = Open(bad, Options{SkipBadRows: true})
	require.NoError(t, err)
	assert.Equal(t, 1, info.FiLiP.SkippedRows)
}

func TestOpenErrors(t *testing.T) {
	_, _, err := Open("foo", Options{})
	require.ErrorIs(t, err, ErrUnknownWorkload)
	var names []string
	for _, w := range spec.Bundled() {
		names = append(names, w.Name)
	}
	assert.EqualError(t, err, `source: "foo": not a bundled workload (known: `+strings.Join(names, ", ")+`) nor a file`)
	_, err = Fingerprint("foo", Options{})
	assert.ErrorIs(t, err, ErrUnknownWorkload)

	dir := writeTemp(t, map[string]string{"notes.txt": "hello"})
	_, _, err = Open(filepath.Join(dir, "notes.txt"), Options{})
	assert.ErrorContains(t, err, `unknown file type ".txt"`)

	for _, missing := range []string{"missing.csv", "missing.yaml", "missing.gcprof"} {
		_, _, err = Open(filepath.Join(dir, missing), Options{})
		assert.ErrorIs(t, err, fs.ErrNotExist, missing)
		_, err = Fingerprint(filepath.Join(dir, missing), Options{})
		assert.ErrorIs(t, err, fs.ErrNotExist, missing)
	}

	bad := writeTemp(t, map[string]string{"bad.yaml": "name: x\nbogus: 1\n"})
	_, _, err = Open(filepath.Join(bad, "bad.yaml"), Options{})
	assert.ErrorIs(t, err, spec.ErrInvalid)
}

func TestFingerprint(t *testing.T) {
	dir := writeTemp(t, map[string]string{
		"a.yaml":    tinySpec,
		"b.yaml":    "# a comment changes nothing\n" + tinySpec,
		"c.yaml":    strings.Replace(tinySpec, "size: 64", "size: 72", 1),
		"run.csv":   tinyCSV,
		"run.json":  tinyJSON,
		"run2.csv":  tinyCSV,
		"run2.json": strings.Replace(tinyJSON, "1900", "1901", 1),
		"solo.csv":  tinyCSV,
	})
	fp := func(ref string, o Options) string {
		t.Helper()
		s, err := Fingerprint(ref, o)
		require.NoError(t, err)
		assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, s)
		return s
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	base := fp(in("a.yaml"), Options{Seed: 1})
	assert.Equal(t, base, fp(in("a.yaml"), Options{Seed: 1}), "deterministic")
	assert.Equal(t, base, fp(in("b.yaml"), Options{Seed: 1}), "comments do not count")
	assert.Equal(t, base, fp(in("a.yaml"), Options{Seed: 1, Clock: filip.ClockMicros}), "FiLiP options do not count")
	assert.NotEqual(t, base, fp(in("c.yaml"), Options{Seed: 1}), "content counts")
	assert.NotEqual(t, base, fp(in("a.yaml"), Options{Seed: 2}), "seed counts")
	assert.NotEqual(t, base, fp(in("a.yaml"), Options{Seed: 1, Resolution: 0.5}), "resolution counts")

	csv := fp(in("run.csv"), Options{})
	assert.Equal(t, csv, fp(in("run.csv"), Options{Seed: 9}), "the seed does not change a recorded profile")
	assert.NotEqual(t, csv, fp(in("run2.csv"), Options{}), "the metadata counts")
	assert.NotEqual(t, csv, fp(in("solo.csv"), Options{SamplingRate: 1}), "missing metadata counts")
	assert.NotEqual(t, fp(in("solo.csv"), Options{SamplingRate: 1}), fp(in("solo.csv"), Options{SamplingRate: 0.01}), "the given rate counts")
	_, err := Fingerprint(in("solo.csv"), Options{})
	assert.ErrorIs(t, err, filip.ErrUnknownSamplingRate, "an export without metadata needs the rate")
	assert.NotEqual(t, csv, fp(in("run.csv"), Options{Clock: filip.ClockMicros}), "the clock counts")
	assert.NotEqual(t, csv, fp(in("run.csv"), Options{SkipBadRows: true}), "skipping counts")
	assert.Equal(t, fp(in("run2.csv"), Options{}), fp(in("run.csv"), Options{FiLiPJSONPath: in("run2.json")}))
	_, err = Fingerprint(in("run.csv"), Options{FiLiPJSONPath: in("none.json")})
	assert.True(t, errors.Is(err, fs.ErrNotExist))

	bundled := spec.Bundled()
	require.NotEmpty(t, bundled)
	w := fp(bundled[0].Name, Options{Seed: 1})
	assert.NotEqual(t, w, fp(bundled[0].Name, Options{Seed: 2}))
}

func TestOpenGCProf(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "small.gcprof")
	want := profiletest.Small(t)
	require.NoError(t, gcprof.Save(path, want))
	p, info, err := Open(path, Options{Seed: 5})
	require.NoError(t, err)
	assert.Equal(t, &Info{Kind: KindGCProf, Ref: path, Path: path}, info)
	assert.Equal(t, want.Birth, p.Birth)
	assert.Equal(t, want.Meta, p.Meta)

	fp1, err := Fingerprint(path, Options{})
	require.NoError(t, err)
	fp2, err := Fingerprint(path, Options{Seed: 5})
	require.NoError(t, err)
	assert.Equal(t, fp1, fp2)

	other := filepath.Join(dir, "other.gcprof")
	var b profile.Builder
	b.Add(b.Class("X"), 16, 0, 1, 1, 0)
	q, err := b.Build(profile.Meta{EndBytes: 1})
	require.NoError(t, err)
	require.NoError(t, gcprof.Save(other, q))
	fp3, err := Fingerprint(other, Options{})
	require.NoError(t, err)
	assert.NotEqual(t, fp1, fp3)
}

// TestOpenRebuildsSampledBytesExports: Open rebuilds a sampled export on the bytes clock (with
// a report), not with HypothesisOff, and warns instead on the microsecond clock.
func TestOpenRebuildsSampledBytesExports(t *testing.T) {
	dir := t.TempDir()
	p := profiletest.WithLarge(t, 20_000, map[int]uint32{5000: 8 << 20, 12000: 3 << 20}, 11)
	csv, meta, _ := writeSample(t, p, filip.SampleOptions{Every: 100, Phase: 4, OverheadBytes: filip.DefaultSampleOverheadBytes})
	path := filepath.Join(dir, "run.csv")
	require.NoError(t, os.WriteFile(path, []byte(csv), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), []byte(meta), 0o644))

	q, info, err := Open(path, Options{Clock: filip.ClockBytes})
	require.NoError(t, err)
	require.NotNil(t, info.Rebuild)
	assert.Equal(t, 2, info.Rebuild.InferredLarge+info.Rebuild.SampledLarge)
	assert.Contains(t, info.Rebuild.String(), "rebuilt from 1/100 sampling")
	assert.Equal(t, q.Len(), info.FiLiP.Rows+info.Rebuild.InferredLarge)

	raw, info, err := Open(path, Options{Clock: filip.ClockBytes, Rebuild: filip.HypothesisOff})
	require.NoError(t, err)
	assert.Nil(t, info.Rebuild)
	assert.Equal(t, info.FiLiP.Rows, raw.Len())

	a, err := Fingerprint(path, Options{Clock: filip.ClockBytes})
	require.NoError(t, err)
	b, err := Fingerprint(path, Options{Clock: filip.ClockBytes, Rebuild: filip.HypothesisLong})
	require.NoError(t, err)
	assert.NotEqual(t, a, b, "the rebuild mode changes the profile: it must change the fingerprint")

	// The same export on the microsecond clock: not rebuilt, and said so.
	_, info, err = Open(path, Options{Clock: filip.ClockMicros})
	require.NoError(t, err)
	assert.Nil(t, info.Rebuild)
	warned := false
	for _, w := range info.FiLiP.Warnings {
		warned = warned || strings.Contains(w, "cannot be rebuilt")
	}
	assert.True(t, warned, "warnings: %q", info.FiLiP.Warnings)
}

// writeSample writes p as a sampled FiLiP export and returns its CSV and metadata.
func writeSample(t testing.TB, p *profile.Profile, opts filip.SampleOptions) (string, string, filip.SampleReport) {
	t.Helper()
	var c, m bytes.Buffer
	rep, err := filip.WriteSample(p, &c, &m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c.String(), m.String(), rep
}
