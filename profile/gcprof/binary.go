package gcprof

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"slices"

	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/profile"
)

// gctune's binary profile format: a Profile as it lies in memory, so a 10 M-record profile
// loads in a fraction of a second (a FiLiP CSV import of the same takes seconds, a generation
// longer). All integers are little-endian.
//
//	magic       8 bytes  "GCTPROF1"
//	version     uint32   1
//	meta        uint32 length, then Meta as JSON
//	records     uint64   n
//	classes     uint32 count, then per class: uint32 length, name bytes
//	containers  uint32 count, then per container: int32 record, uint64 from, uint64 until
//	references  version 2 only (Profile.Stores, StoredIn, PointerFree, Container.Successor
//	            and ImmediateFraction; a profile without them is written as version 1):
//	            per container: int32 successor, float32 immediate fraction;
//	            uint32 store count, then per store: int32 container, float32 from,
//	            float32 for, uint64 at;
//	            uint8 1 if a pointer-free table follows, then [classes]uint8;
//	            uint8 1 if the StoredIn column follows the Flags column
//	sites       version 3 only (Profile.SiteNames and Site; a profile with sites is written
//	            as version 3, its references block always present): uint32 count, then per
//	            site: uint32 length, name bytes
//	columns     Class [n]uint32, SizeBytes [n]uint32, Birth [n]uint64, Death [n]uint64,
//	            Weight [n]uint32, Flags [n]uint8, and in versions 2 and 3 StoredIn [n]uint16
//	            when announced, and in version 3 Site [n]uint32
//	checksum    uint32   CRC-32C (Castagnoli) of every byte before it
//
// A reader checks the magic, the version, every length against sane bounds (and against the
// file's size when it knows it) before allocating, the checksum, and finally Profile.Validate.
// A truncated or damaged file gives an error wrapping ErrCorrupt that says what was
// being read and where.

// ErrCorrupt is wrapped by the errors Read and Load return for data that is
// not an intact gctune binary profile (wrong magic, truncated, bad checksum, absurd lengths).
var ErrCorrupt = errors.New("gcprof: corrupt binary profile")

// Magic starts every gctune binary profile.
const Magic = "GCTPROF1"

// Version is the newest format version: Write writes it for a profile that names
// allocation sites (Profile.Site), version 2 for one that carries references
// (Profile.Stores and friends) and no sites, and version 1 otherwise; Read reads all three.
const Version = 3

// Bounds a reader applies before trusting a length.
const (
	binaryMaxMetaBytes  = 1 << 20
	binaryMaxNameBytes  = 1 << 20
	binaryMaxRecords    = 1 << 36 // 2 TB of columns
	binaryMaxClasses    = 1 << 31
	binaryChunkBytes    = 1 << 20 // columns are converted through a buffer this big
	binaryRecordBytes   = 4 + 4 + 8 + 8 + 4 + 1
	binaryContainerSize = 4 + 8 + 8
	binaryContainerExt  = 4 + 4
	binaryStoreSize     = 4 + 4 + 4 + 8
)

// hasReferences reports whether p carries what only version 2 can hold.
func hasReferences(p *profile.Profile) bool {
	if len(p.Stores) > 0 || p.StoredIn != nil || p.PointerFree != nil {
		return true
	}
	for _, c := range p.Containers {
		if c.Successor != 0 || c.ImmediateFraction != 0 {
			return true
		}
	}
	return false
}

// appendReferences appends version 2's references block.
func appendReferences(hdr []byte, p *profile.Profile) []byte {
	le := binary.LittleEndian
	for _, c := range p.Containers {
		hdr = le.AppendUint32(hdr, uint32(c.Successor))
		hdr = le.AppendUint32(hdr, math.Float32bits(c.ImmediateFraction))
	}
	hdr = le.AppendUint32(hdr, uint32(len(p.Stores)))
	for _, st := range p.Stores {
		hdr = le.AppendUint32(hdr, uint32(st.Container))
		hdr = le.AppendUint32(hdr, math.Float32bits(st.FromFraction))
		hdr = le.AppendUint32(hdr, math.Float32bits(st.ForFraction))
		hdr = le.AppendUint64(hdr, st.AtBytes)
	}
	if p.PointerFree != nil {
		hdr = append(hdr, 1)
		for _, f := range p.PointerFree {
			b := byte(0)
			if f {
				b = 1
			}
			hdr = append(hdr, b)
		}
	} else {
		hdr = append(hdr, 0)
	}
	if p.StoredIn != nil {
		return append(hdr, 1)
	}
	return append(hdr, 0)
}

// readReferences reads version 2's references block into p; it reports whether the StoredIn
// column follows the others.
func (br *binReader) readReferences(p *profile.Profile) (storedIn bool, err error) {
	var cb [binaryContainerExt]byte
	for i := range p.Containers {
		if err := br.full(cb[:], "container references"); err != nil {
			return false, err
		}
		p.Containers[i].Successor = int32(binary.LittleEndian.Uint32(cb[0:]))
		p.Containers[i].ImmediateFraction = math.Float32frombits(binary.LittleEndian.Uint32(cb[4:]))
	}
	stores, err := br.u32("store count")
	if err != nil {
		return false, err
	}
	if stores > math.MaxUint16 {
		return false, br.corrupt("store count %d over %d", stores, math.MaxUint16)
	}
	p.Stores, err = readRecords(br, stores, binaryStoreSize, "stores", func(b []byte) profile.Store {
		return profile.Store{
			Container:    int32(binary.LittleEndian.Uint32(b[0:])),
			FromFraction: math.Float32frombits(binary.LittleEndian.Uint32(b[4:])),
			ForFraction:  math.Float32frombits(binary.LittleEndian.Uint32(b[8:])),
			AtBytes:      binary.LittleEndian.Uint64(b[12:]),
		}
	})
	if err != nil {
		return false, err
	}
	var flag [1]byte
	if err := br.full(flag[:], "pointer-free flag"); err != nil {
		return false, err
	}
	if flag[0] == 1 {
		table := make([]byte, len(p.ClassNames))
		if err := br.full(table, "pointer-free table"); err != nil {
			return false, err
		}
		p.PointerFree = make([]bool, len(table))
		for i, b := range table {
			p.PointerFree[i] = b != 0
		}
	}
	if err := br.full(flag[:], "stored-in flag"); err != nil {
		return false, err
	}
	return flag[0] == 1, nil
}

// Write writes p in gctune's binary format. It refuses a profile that does not validate.
func Write(w io.Writer, p *profile.Profile) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("gcprof: write binary profile: %w", err)
	}
	meta, err := json.Marshal(p.Meta)
	if err != nil {
		return fmt.Errorf("gcprof: write binary profile: meta: %w", err)
	}
	if len(meta) > binaryMaxMetaBytes {
		return fmt.Errorf("gcprof: write binary profile: meta is %d bytes, over %d", len(meta), binaryMaxMetaBytes)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := &crcWriter{w: bw, table: crc32.MakeTable(crc32.Castagnoli)}

	hdr := make([]byte, 0, 64)
	hdr = append(hdr, Magic...)
	refs := hasReferences(p) || p.Site != nil
	version := uint32(1)
	switch {
	case p.Site != nil:
		version = 3
	case refs:
		version = 2
	}
	hdr = binary.LittleEndian.AppendUint32(hdr, version)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(meta)))
	hdr = append(hdr, meta...)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(p.Len()))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(p.ClassNames)))
	for _, name := range p.ClassNames {
		if len(name) > binaryMaxNameBytes {
			return fmt.Errorf("gcprof: write binary profile: class name of %d bytes, over %d", len(name), binaryMaxNameBytes)
		}
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(name)))
		hdr = append(hdr, name...)
	}
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(p.Containers)))
	for _, c := range p.Containers {
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(c.Record))
		hdr = binary.LittleEndian.AppendUint64(hdr, c.StoresFromBytes)
		hdr = binary.LittleEndian.AppendUint64(hdr, c.StoresUntilBytes)
	}
	if refs {
		hdr = appendReferences(hdr, p)
	}
	if p.Site != nil {
		var err error
		if hdr, err = appendSiteNames(hdr, p); err != nil {
			return err
		}
	}
	cw.Write(hdr)

	buf := make([]byte, 0, binaryChunkBytes)
	writeColumn(cw, buf, p.Class, binary.LittleEndian.AppendUint32)
	writeColumn(cw, buf, p.SizeBytes, binary.LittleEndian.AppendUint32)
	writeColumn(cw, buf, p.Birth, binary.LittleEndian.AppendUint64)
	writeColumn(cw, buf, p.Death, binary.LittleEndian.AppendUint64)
	writeColumn(cw, buf, p.Weight, binary.LittleEndian.AppendUint32)
	cw.Write(p.Flags)
	if refs && p.StoredIn != nil {
		writeColumn(cw, buf, p.StoredIn, binary.LittleEndian.AppendUint16)
	}
	if p.Site != nil {
		writeColumn(cw, buf, p.Site, binary.LittleEndian.AppendUint32)
	}
	if cw.err != nil {
		return fmt.Errorf("gcprof: write binary profile: %w", cw.err)
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint32(nil, cw.crc)); err != nil {
		return fmt.Errorf("gcprof: write binary profile: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gcprof: write binary profile: %w", err)
	}
	return nil
}

// crcWriter checksums what it writes and keeps the first error (later writes do nothing).
type crcWriter struct {
	w     io.Writer
	table *crc32.Table
	crc   uint32
	err   error
}

func (c *crcWriter) Write(b []byte) {
	if c.err != nil {
		return
	}
	c.crc = crc32.Update(c.crc, c.table, b)
	_, c.err = c.w.Write(b)
}

// writeColumn encodes col little-endian through buf, a chunk at a time.
func writeColumn[T uint16 | uint32 | uint64](cw *crcWriter, buf []byte, col []T, appendLE func([]byte, T) []byte) {
	for len(col) > 0 && cw.err == nil {
		b := buf[:0]
		for len(col) > 0 && len(b)+8 <= cap(b) {
			b = appendLE(b, col[0])
			col = col[1:]
		}
		cw.Write(b)
	}
}

// Read reads a profile Write wrote and validates it. Errors for damaged data wrap
// ErrCorrupt; a profile that is intact but invalid gives Validate's error (wrapping
// ErrInvalidProfile).
func Read(r io.Reader) (*profile.Profile, error) {
	return readBinary(r, -1, "binary profile")
}

// Save writes p in the binary format to path, atomically (outfile.Write: a temporary
// file in the same directory, synced and renamed over path), so a crash leaves either the old
// file or the new one, never half of one.
func Save(path string, p *profile.Profile) error {
	if err := outfile.Write(path, func(w io.Writer) error { return Write(w, p) }); err != nil {
		return fmt.Errorf("gcprof: save profile: %w", err)
	}
	return nil
}

// Load reads a profile Save (or Write) wrote. Knowing the file's size, it
// checks the lengths in the header against it before allocating anything large.
func Load(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gcprof: load profile: %w", err)
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return readBinary(f, size, path)
}

// binReader reads the format, checksumming and counting what it reads.
type binReader struct {
	r     io.Reader
	name  string
	table *crc32.Table
	crc   uint32
	pos   int64
}

// full reads exactly len(b) bytes; what names the part being read, for the error.
func (br *binReader) full(b []byte, what string) error {
	n, err := io.ReadFull(br.r, b)
	br.crc = crc32.Update(br.crc, br.table, b[:n])
	br.pos += int64(n)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return fmt.Errorf("%w: %s: truncated at byte %d, reading %s: %w", ErrCorrupt, br.name, br.pos, what, io.ErrUnexpectedEOF)
	case err != nil:
		return fmt.Errorf("gcprof: %s: reading %s: %w", br.name, what, err)
	}
	return nil
}

func (br *binReader) u32(what string) (uint32, error) {
	var b [4]byte
	if err := br.full(b[:], what); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

func (br *binReader) u64(what string) (uint64, error) {
	var b [8]byte
	if err := br.full(b[:], what); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// readRecords reads n records of size bytes each (what names them in errors) and decodes
// each with decode, nil when n is 0. The slice is bounded by the data actually there: each
// record is read before the next is kept, and at most 1<<16 are allocated ahead.
func readRecords[T any](br *binReader, n uint32, size int, what string, decode func(b []byte) T) ([]T, error) {
	if n == 0 {
		return nil, nil
	}
	out := make([]T, 0, min(n, 1<<16))
	b := make([]byte, size)
	for range n {
		if err := br.full(b, what); err != nil {
			return nil, err
		}
		out = append(out, decode(b))
	}
	return out, nil
}

func (br *binReader) corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrCorrupt, br.name, fmt.Sprintf(format, args...))
}

// readBinary reads the format from r; size is the number of bytes r holds if known, -1 if not.
func readBinary(r io.Reader, size int64, name string) (*profile.Profile, error) {
	br := &binReader{r: bufio.NewReaderSize(r, 64<<10), name: name, table: crc32.MakeTable(crc32.Castagnoli)}
	var magic [8]byte
	if err := br.full(magic[:], "magic"); err != nil {
		return nil, err
	}
	if string(magic[:]) != Magic {
		return nil, br.corrupt("not a gctune binary profile (magic %q, want %q)", magic[:], Magic)
	}
	version, err := br.u32("version")
	if err != nil {
		return nil, err
	}
	if version < 1 || version > Version {
		return nil, br.corrupt("format version %d, this gctune reads versions 1 to %d", version, Version)
	}

	metaLen, err := br.u32("meta length")
	if err != nil {
		return nil, err
	}
	if metaLen > binaryMaxMetaBytes {
		return nil, br.corrupt("meta length %d over %d", metaLen, binaryMaxMetaBytes)
	}
	metaJSON := make([]byte, metaLen)
	if err := br.full(metaJSON, "meta"); err != nil {
		return nil, err
	}
	p := &profile.Profile{}
	if err := json.Unmarshal(metaJSON, &p.Meta); err != nil {
		return nil, br.corrupt("meta: %v", err)
	}

	records, err := br.u64("record count")
	if err != nil {
		return nil, err
	}
	if records > binaryMaxRecords {
		return nil, br.corrupt("record count %d over %d", records, uint64(binaryMaxRecords))
	}
	n := int(records)

	classes, err := br.u32("class count")
	if err != nil {
		return nil, err
	}
	if classes > binaryMaxClasses || classes > profile.MaxClassNames {
		return nil, br.corrupt("class count %d over %d (%v)", classes, min(binaryMaxClasses, profile.MaxClassNames), profile.ErrTooManyNames)
	}
	if classes > 0 {
		p.ClassNames = make([]string, 0, min(classes, 1<<16))
	}
	var nameBuf []byte
	for i := range classes {
		l, err := br.u32("class name length")
		if err != nil {
			return nil, err
		}
		if l > binaryMaxNameBytes {
			return nil, br.corrupt("class %d: name length %d over %d", i, l, binaryMaxNameBytes)
		}
		nameBuf = slices.Grow(nameBuf[:0], int(l))[:l]
		if err := br.full(nameBuf, "class names"); err != nil {
			return nil, err
		}
		p.ClassNames = append(p.ClassNames, string(nameBuf))
	}

	containers, err := br.u32("container count")
	if err != nil {
		return nil, err
	}
	p.Containers, err = readRecords(br, containers, binaryContainerSize, "containers", func(b []byte) profile.Container {
		return profile.Container{
			Record:           int32(binary.LittleEndian.Uint32(b[0:])),
			StoresFromBytes:  binary.LittleEndian.Uint64(b[4:]),
			StoresUntilBytes: binary.LittleEndian.Uint64(b[12:]),
		}
	})
	if err != nil {
		return nil, err
	}

	storedIn := false
	if version >= 2 {
		if storedIn, err = br.readReferences(p); err != nil {
			return nil, err
		}
	}
	recordBytes := int64(binaryRecordBytes)
	if storedIn {
		recordBytes += 2
	}
	if version >= 3 {
		if err := br.readSiteNames(p); err != nil {
			return nil, err
		}
		recordBytes += 4
	}

	// With the size known, the columns and the checksum must fill the rest exactly.
	capHint := min(n, binaryChunkBytes)
	if size >= 0 {
		want := br.pos + int64(n)*recordBytes + 4
		switch {
		case size < want:
			return nil, fmt.Errorf("%w: %s: truncated: %d bytes, the header announces %d records and %d bytes: %w",
				ErrCorrupt, name, size, n, want, io.ErrUnexpectedEOF)
		case size > want:
			return nil, br.corrupt("%d bytes, %d more than its %d records need", size, size-want, n)
		}
		capHint = n
	}
	cols := &columnReader{br: br, chunk: make([]byte, binaryChunkBytes), n: n, capHint: capHint}
	p.Class = readColumn(cols, "class column", decodeU32)
	p.SizeBytes = readColumn(cols, "size column", decodeU32)
	p.Birth = readColumn(cols, "birth column", decodeU64)
	p.Death = readColumn(cols, "death column", decodeU64)
	p.Weight = readColumn(cols, "weight column", decodeU32)
	p.Flags = readColumn(cols, "flags column", decodeU8)
	if storedIn {
		if p.StoredIn = readColumn(cols, "stored-in column", decodeU16); p.StoredIn == nil {
			p.StoredIn = []uint16{}
		}
	}
	if version >= 3 {
		if p.Site = readColumn(cols, "site column", decodeU32); p.Site == nil {
			p.Site = []uint32{}
		}
	}
	if cols.err != nil {
		return nil, cols.err
	}

	sum := br.crc
	stored, err := br.u32("checksum")
	if err != nil {
		return nil, err
	}
	if stored != sum {
		return nil, br.corrupt("checksum mismatch (stored %08x, computed %08x): the file is damaged", stored, sum)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("gcprof: %s: %w", name, err)
	}
	if err := checkTotals(p, name); err != nil {
		return nil, err
	}
	p.SetPointerFreeFlags() // files written before the flag existed
	return p, nil
}

// columnReader reads the record columns, n values each, through chunk, and keeps the first
// error: once it has one, readColumn reads nothing (crcWriter's counterpart). capHint is how
// many values to allocate up front: n when the file's size vouched for it, otherwise at most a
// chunk's worth, growing only as data actually arrives, so a corrupt count cannot make the
// reader allocate terabytes.
type columnReader struct {
	br         *binReader
	chunk      []byte
	n, capHint int
	err        error
}

// readColumn reads the next column, n little-endian values; nil when n is 0 or after an error.
func readColumn[T uint8 | uint16 | uint32 | uint64](c *columnReader, what string, decode func(dst []T, src []byte)) []T {
	if c.n == 0 || c.err != nil {
		return nil
	}
	var zero T
	width := binary.Size(zero)
	col := make([]T, 0, c.capHint)
	for len(col) < c.n {
		k := min(c.n-len(col), len(c.chunk)/width)
		if c.err = c.br.full(c.chunk[:k*width], what); c.err != nil {
			return nil
		}
		l := len(col)
		col = slices.Grow(col, k)[:l+k]
		decode(col[l:], c.chunk[:k*width])
	}
	return col
}

func decodeU8(dst []uint8, src []byte) { copy(dst, src) }

func decodeU16(dst []uint16, src []byte) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint16(src[2*i:])
	}
}

func decodeU32(dst []uint32, src []byte) {
	src = src[:4*len(dst)]
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint32(src[4*i:])
	}
}

func decodeU64(dst []uint64, src []byte) {
	src = src[:8*len(dst)]
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint64(src[8*i:])
	}
}
