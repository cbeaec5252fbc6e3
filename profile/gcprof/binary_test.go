package gcprof

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/gctune/gctune/internal/profiletest"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
)

// binaryTestProfile builds a small profile that uses every part of the format.
func binaryTestProfile(t testing.TB) *profile.Profile {
	t.Helper()
	var b profile.Builder
	frac, arr, str := b.Class("Fraction"), b.Class("Array"), b.Class("ByteString ünicode")
	b.Add(frac, 16, 100, 200, 100, 0)
	b.Add(arr, 1<<20, 150, 5000, 1, profile.FlagOldSpace|profile.FlagAliveAtEnd)
	col := b.Add(arr, 800_000, 120, 5000, 1, profile.FlagOldSpace|profile.FlagAliveAtEnd)
	b.Add(str, 40, 3000, 4000, 100, 0)
	b.AddContainer(profile.Container{Record: int32(col), StoresFromBytes: 200, StoresUntilBytes: 4500})
	p, err := b.Build(profile.Meta{Source: "test", Profiler: "gctune-spec", EndBytes: 5000, TotalAllocatedBytes: 123456,
		RunSeconds: 1.25, SamplingRate: 0.01, ReportedScavenges: 7, ReportedFullGCs: 2})
	require.NoError(t, err)
	return p
}

// syntheticProfile builds a profile of n records quickly, for benchmarks.
func syntheticProfile(t testing.TB, n int) *profile.Profile {
	t.Helper()
	var b profile.Builder
	b.Grow(n)
	classes := []uint32{b.Class("Fraction"), b.Class("NumberParser"), b.Class("ReadStream"), b.Class("ByteString"), b.Class("Array")}
	end := uint64(n) * 4000
	for i := range n {
		birth := uint64(i) * 4000
		death := min(birth+uint64(i%97)*1000, end)
		flags := uint8(0)
		if i%7 == 0 {
			death, flags = end, profile.FlagAliveAtEnd
		}
		b.Add(classes[i%len(classes)], uint32(16+8*(i%5)), birth, death, 100, flags)
	}
	p, err := b.Build(profile.Meta{Source: "synthetic", EndBytes: end, SamplingRate: 0.01})
	require.NoError(t, err)
	return p
}

func requireSameProfile(t *testing.T, want, got *profile.Profile) {
	t.Helper()
	require.Equal(t, want.Meta, got.Meta)
	require.True(t, slices.Equal(want.ClassNames, got.ClassNames), "class names %q vs %q", want.ClassNames, got.ClassNames)
	require.True(t, slices.Equal(want.Class, got.Class), "class column")
	require.True(t, slices.Equal(want.SizeBytes, got.SizeBytes), "size column")
	require.True(t, slices.Equal(want.Birth, got.Birth), "birth column")
	require.True(t, slices.Equal(want.Death, got.Death), "death column")
	require.True(t, slices.Equal(want.Weight, got.Weight), "weight column")
	require.True(t, slices.Equal(want.Flags, got.Flags), "flags column")
	require.True(t, slices.Equal(want.Containers, got.Containers), "containers")
	require.True(t, slices.Equal(want.Stores, got.Stores), "stores")
	require.True(t, slices.Equal(want.StoredIn, got.StoredIn), "stored-in column")
	require.Equal(t, want.StoredIn == nil, got.StoredIn == nil, "stored-in column presence")
	require.True(t, slices.Equal(want.PointerFree, got.PointerFree), "pointer-free table")
	require.True(t, slices.Equal(want.SiteNames, got.SiteNames), "site names %q vs %q", want.SiteNames, got.SiteNames)
	require.True(t, slices.Equal(want.Site, got.Site), "site column")
	require.Equal(t, want.Site == nil, got.Site == nil, "site column presence")
}

// binaryReferencesProfile is binaryTestProfile with the version 2 references: a successor,
// an immediate fraction, stores, a stored-in column and a pointer-free table.
func binaryReferencesProfile(t testing.TB) *profile.Profile {
	t.Helper()
	var b profile.Builder
	arr, str := b.Class("Array"), b.Class("ByteString")
	a := b.Add(arr, 800_000, 100, 5000, 1, profile.FlagOldSpace|profile.FlagAliveAtEnd)
	c := b.Add(arr, 1<<20, 150, 5000, 1, profile.FlagOldSpace|profile.FlagAliveAtEnd)
	r1 := b.Add(str, 40, 200, 4000, 100, 0)
	b.Add(str, 40, 300, 4000, 100, 0)
	r3 := b.Add(arr, 808, 400, 5000, 10, profile.FlagAliveAtEnd)
	b.AddContainer(profile.Container{Record: int32(a), StoresFromBytes: 100, StoresUntilBytes: 100, ImmediateFraction: 0.5})
	b.AddContainer(profile.Container{Record: int32(c), StoresFromBytes: 150, StoresUntilBytes: 3000})
	b.SetSuccessor(0, 1)
	b.SetStoredIn(r1, b.AddStore(profile.Store{Container: 0, FromFraction: 0.25, ForFraction: 0.5}))
	b.SetStoredIn(r3, b.AddStore(profile.Store{Container: 1, AtBytes: 450}))
	b.SetPointerFree([]bool{false, true})
	p, err := b.Build(profile.Meta{Source: "refs", EndBytes: 5000})
	require.NoError(t, err)
	return p
}

func TestBinaryRoundTrip(t *testing.T) {
	empty, err := (&profile.Builder{}).Build(profile.Meta{Source: "empty"})
	require.NoError(t, err)
	exported, _, err := filip.Read("../filip/testdata/filip/era-v1.1.csv", filip.Options{})
	require.NoError(t, err)
	withSites, _, err := filip.Read("../filip/testdata/filip/era-filip.csv", filip.Options{})
	require.NoError(t, err)
	for name, p := range map[string]*profile.Profile{
		"small":      binaryTestProfile(t),
		"references": binaryReferencesProfile(t),
		"empty":      empty,
		"filip":      exported,
		"sites":      withSites,
		"synthetic":  syntheticProfile(t, 300_000), // several conversion chunks per column
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, Write(&buf, p))
			assert.Equal(t, Magic, buf.String()[:8])
			got, err := Read(bytes.NewReader(buf.Bytes()))
			require.NoError(t, err)
			requireSameProfile(t, p, got)

			path := filepath.Join(t.TempDir(), "p.gcprof")
			require.NoError(t, Save(path, p))
			onDisk, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, buf.Bytes(), onDisk)
			got, err = Load(path)
			require.NoError(t, err)
			requireSameProfile(t, p, got)
		})
	}
}

func TestBinaryLayout(t *testing.T) {
	// The format is a contract with files on disk: pin the layout of the small profile.
	p := binaryTestProfile(t)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, p))
	data := buf.Bytes()
	meta := `{"source":"test","profiler":"gctune-spec","endBytes":5000,"totalAllocatedBytes":123456,"runSeconds":1.25,"samplingRate":0.01,"reportedScavenges":7,"reportedFullGCs":2}`
	var want []byte
	want = append(want, "GCTPROF1"...)
	want = binary.LittleEndian.AppendUint32(want, 1)
	want = binary.LittleEndian.AppendUint32(want, uint32(len(meta)))
	want = append(want, meta...)
	want = binary.LittleEndian.AppendUint64(want, 4)
	want = binary.LittleEndian.AppendUint32(want, 3)
	for _, name := range p.ClassNames {
		want = binary.LittleEndian.AppendUint32(want, uint32(len(name)))
		want = append(want, name...)
	}
	want = binary.LittleEndian.AppendUint32(want, 1)
	want = binary.LittleEndian.AppendUint32(want, 1) // the container, record 1 once sorted by birth
	want = binary.LittleEndian.AppendUint64(want, 200)
	want = binary.LittleEndian.AppendUint64(want, 4500)
	for _, c := range p.Class {
		want = binary.LittleEndian.AppendUint32(want, c)
	}
	for _, s := range p.SizeBytes {
		want = binary.LittleEndian.AppendUint32(want, s)
	}
	for _, b := range p.Birth {
		want = binary.LittleEndian.AppendUint64(want, b)
	}
	for _, d := range p.Death {
		want = binary.LittleEndian.AppendUint64(want, d)
	}
	for _, w := range p.Weight {
		want = binary.LittleEndian.AppendUint32(want, w)
	}
	want = append(want, p.Flags...)
	want = binary.LittleEndian.AppendUint32(want, crc32.Checksum(want, crc32.MakeTable(crc32.Castagnoli)))
	assert.Equal(t, want, data)
}

func TestBinaryTruncated(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, binaryTestProfile(t)))
	data := buf.Bytes()
	dir := t.TempDir()
	for l := range len(data) {
		_, err := Read(bytes.NewReader(data[:l]))
		require.Error(t, err, "length %d", l)
		assert.ErrorIs(t, err, ErrCorrupt, "length %d", l)
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "length %d", l)
		assert.Contains(t, err.Error(), "truncated", "length %d", l)

		path := filepath.Join(dir, fmt.Sprintf("t%d.gcprof", l))
		require.NoError(t, os.WriteFile(path, data[:l], 0o644))
		_, err = Load(path)
		require.Error(t, err, "length %d", l)
		assert.ErrorIs(t, err, ErrCorrupt, "length %d", l)
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "length %d", l)
		assert.Contains(t, err.Error(), path)
	}
	_, err := Read(bytes.NewReader(data[:100]))
	assert.EqualError(t, err, "gcprof: corrupt binary profile: binary profile: truncated at byte 100, reading meta: unexpected EOF")
	_, err = Read(bytes.NewReader(data[:len(data)-2]))
	assert.EqualError(t, err, fmt.Sprintf("gcprof: corrupt binary profile: binary profile: truncated at byte %d, reading checksum: unexpected EOF", len(data)-2))
	path := filepath.Join(dir, "short.gcprof")
	require.NoError(t, os.WriteFile(path, data[:len(data)-10], 0o644))
	_, err = Load(path)
	assert.EqualError(t, err, fmt.Sprintf("gcprof: corrupt binary profile: %s: truncated: %d bytes, the header announces 4 records and %d bytes: unexpected EOF",
		path, len(data)-10, len(data)))
}

func TestBinaryDamaged(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, binaryTestProfile(t)))
	data := buf.Bytes()
	for i := range data {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			bad := slices.Clone(data)
			bad[i] ^= mask
			_, err := Read(bytes.NewReader(bad))
			require.Error(t, err, "byte %d ^ %#x", i, mask)
			assert.ErrorIs(t, err, ErrCorrupt, "byte %d ^ %#x: %v", i, mask, err)
		}
	}
	last := slices.Clone(data)
	last[len(last)-20] ^= 1 // in a column
	_, err := Read(bytes.NewReader(last))
	assert.ErrorContains(t, err, "checksum mismatch")

	_, err = Read(strings.NewReader("GCTPROF9xxxxxxxxxxxxxxxxxxxx"))
	assert.EqualError(t, err, `gcprof: corrupt binary profile: binary profile: not a gctune binary profile (magic "GCTPROF9", want "GCTPROF1")`)
	v4 := slices.Clone(data)
	v4[8] = 4
	_, err = Read(bytes.NewReader(v4))
	assert.EqualError(t, err, "gcprof: corrupt binary profile: binary profile: format version 4, this gctune reads versions 1 to 3")

	// Absurd lengths are refused before anything is allocated for them.
	huge := slices.Clone(data[:12])
	huge = binary.LittleEndian.AppendUint32(huge, 1<<30)
	_, err = Read(bytes.NewReader(huge))
	assert.ErrorContains(t, err, "meta length 1073741824 over 1048576")
	manyRecords := slices.Clone(data[:16+binary.LittleEndian.Uint32(data[12:])])
	manyRecords = binary.LittleEndian.AppendUint64(manyRecords, 1<<62)
	_, err = Read(bytes.NewReader(manyRecords))
	assert.ErrorContains(t, err, "record count 4611686018427387904 over")
	// A plausible but false record count on a stream runs out of data, it does not allocate it.
	manyRecords = slices.Clone(data[:16+binary.LittleEndian.Uint32(data[12:])])
	manyRecords = binary.LittleEndian.AppendUint64(manyRecords, 1<<35)
	manyRecords = append(manyRecords, make([]byte, 8)...) // no classes, no containers
	_, err = Read(bytes.NewReader(manyRecords))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)

	// A file with trailing bytes is refused.
	path := filepath.Join(t.TempDir(), "long.gcprof")
	require.NoError(t, os.WriteFile(path, append(slices.Clone(data), 0), 0o644))
	_, err = Load(path)
	assert.ErrorContains(t, err, "1 more than its 4 records need")
	assert.ErrorIs(t, err, ErrCorrupt)
}

func TestBinaryInvalidProfile(t *testing.T) {
	// Intact (the checksum matches) but invalid: Validate's error.
	p := binaryTestProfile(t)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, p))
	data := buf.Bytes()
	deathCol := len(data) - 4 - p.Len() - 4*p.Len() - 8*p.Len()
	binary.LittleEndian.PutUint64(data[deathCol:], p.Meta.EndBytes+1)
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], crc32.MakeTable(crc32.Castagnoli)))
	_, err := Read(bytes.NewReader(data))
	assert.ErrorIs(t, err, profile.ErrInvalidProfile)
	assert.NotErrorIs(t, err, ErrCorrupt)

	// Write refuses an invalid profile.
	p.Death[0] = p.Meta.EndBytes + 1
	err = Write(io.Discard, p)
	assert.ErrorIs(t, err, profile.ErrInvalidProfile)
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(b []byte) (int, error) {
	if w.after < len(b) {
		return 0, errors.New("disk full")
	}
	w.after -= len(b)
	return len(b), nil
}

func TestWriteBinaryError(t *testing.T) {
	p := syntheticProfile(t, 100_000)
	for _, after := range []int{0, 100, 1 << 20} {
		err := Write(&failingWriter{after: after}, p)
		assert.EqualError(t, err, "gcprof: write binary profile: disk full")
	}
}

func TestBinarySaveProfileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.gcprof")
	p := binaryTestProfile(t)
	require.NoError(t, Save(path, p))
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	// A failed save leaves the old file and no temporary file.
	bad := binaryTestProfile(t)
	bad.Death[0] = bad.Meta.EndBytes + 1
	err = Save(path, bad)
	assert.ErrorIs(t, err, profile.ErrInvalidProfile)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "p.gcprof", entries[0].Name())

	// Overwriting works.
	other := syntheticProfile(t, 10)
	require.NoError(t, Save(path, other))
	got, err := Load(path)
	require.NoError(t, err)
	requireSameProfile(t, other, got)

	err = Save(filepath.Join(dir, "missing", "p.gcprof"), p)
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = Load(filepath.Join(dir, "nope.gcprof"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	// A relative path in the working directory.
	t.Chdir(dir)
	require.NoError(t, Save("rel.gcprof", p))
	got, err = Load("rel.gcprof")
	require.NoError(t, err)
	requireSameProfile(t, p, got)
}

// FuzzReadBinary: whatever the bytes, Read returns an error or a valid profile, and never
// panics or allocates without bound.
func FuzzReadBinary(f *testing.F) {
	var buf bytes.Buffer
	if err := Write(&buf, binaryTestProfile(f)); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:50])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read(bytes.NewReader(data))
		if err == nil {
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// BenchmarkLoadProfile loads saved profiles of 1 M and 10 M records from disk (the page cache,
// after the first round): records/s is the figure to watch.
func BenchmarkLoadProfile(b *testing.B) {
	dir := b.TempDir()
	for _, n := range []int{1_000_000, 10_000_000} {
		path := filepath.Join(dir, fmt.Sprintf("p%d.gcprof", n))
		p := syntheticProfile(b, n)
		if err := Save(path, p); err != nil {
			b.Fatal(err)
		}
		p = nil
		profiletest.BenchRead(b, fmt.Sprintf("records=%d", n), path, n, "records", func() (int, error) {
			q, err := Load(path)
			if err != nil {
				return 0, err
			}
			return q.Len(), nil
		})
	}
}

// BenchmarkSaveProfile writes a 1 M-record profile (including the fsync).
func BenchmarkSaveProfile(b *testing.B) {
	dir := b.TempDir()
	p := syntheticProfile(b, 1_000_000)
	path := filepath.Join(dir, "p.gcprof")
	b.ReportAllocs()
	for b.Loop() {
		if err := Save(path, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.Len())*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// TestBinaryVersions: a profile is written in the oldest version that holds it (1 plain, 2
// with references, 3 with sites), and each reads back.
func TestBinaryVersions(t *testing.T) {
	withSites, _, err := filip.Read("../filip/testdata/filip/era-filip.csv", filip.Options{})
	require.NoError(t, err)
	for want, p := range map[uint32]*profile.Profile{1: binaryTestProfile(t), 2: binaryReferencesProfile(t), 3: withSites} {
		var buf bytes.Buffer
		require.NoError(t, Write(&buf, p))
		assert.Equal(t, want, binary.LittleEndian.Uint32(buf.Bytes()[8:12]))
		got, err := Read(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		requireSameProfile(t, p, got)
	}
}
