package filip

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gctune/gctune/profile"
)

// filipMaxLineBytes bounds a CSV line: no real row comes near it, and a file without newlines
// fails with a clear message instead of exhausting memory.
const filipMaxLineBytes = 16 << 20

// filipMaxTimestamp bounds timestamps: 2^53 (9 PB allocated, or 285 years of microseconds) keeps
// every integer exact in a float64.
const filipMaxTimestamp = 1 << 53

// filipUnknownClass is the class name an empty allocatedObjectClass field is interned as.
const filipUnknownClass = "(unknown)"

// readCSV splits the input into lines and parses them. It reads big chunks and cuts lines with
// bytes.IndexByte, so no line is copied unless it straddles two chunks.
func (r *filipReader) readCSV(in io.Reader, sizeHint int64) error {
	bufSize := 1 << 20
	if sizeHint >= 0 {
		bufSize = int(min(max(sizeHint+1, 4096), 1<<20))
	}
	buf := make([]byte, bufSize)
	start, end := 0, 0
	eof, presized := false, false
	for {
		for {
			i := bytes.IndexByte(buf[start:end], '\n')
			if i < 0 {
				break
			}
			if err := r.handleLine(buf[start : start+i]); err != nil {
				return err
			}
			start += i + 1
		}
		if eof {
			if start < end {
				if err := r.handleLine(buf[start:end]); err != nil {
					return err
				}
			}
			break
		}
		// Keep the incomplete last line, make room, read more.
		end = copy(buf, buf[start:end])
		start = 0
		if end == len(buf) {
			if len(buf) >= filipMaxLineBytes {
				return &RowError{File: r.name, Line: r.line + 1, Problem: fmt.Sprintf("line longer than %d bytes", filipMaxLineBytes)}
			}
			buf = slices.Grow(buf, len(buf))[:2*len(buf)]
		}
		n, err := in.Read(buf[end:])
		end += n
		if !presized && sizeHint > 0 {
			presized = r.presize(buf[:end], sizeHint)
		}
		switch {
		case err == io.EOF:
			eof = true
		case err != nil:
			return fmt.Errorf("filip: %s: %w", r.name, err)
		}
	}
	if r.layout.name == "" {
		return fmt.Errorf("filip: %s: empty file: no header", r.name)
	}
	return nil
}

// presize reserves room in the raw columns for the rows a CSV of sizeBytes bytes holds,
// estimated from the mean line length of a chunk of it. It reports false when the chunk holds
// too few lines to tell.
func (r *filipReader) presize(chunk []byte, sizeBytes int64) bool {
	lines := bytes.Count(chunk, []byte("\n"))
	if lines < 2 {
		return false
	}
	n := int(min(float64(sizeBytes)/float64(len(chunk))*float64(lines)*1.05+16, 1<<28)) - len(r.birth)
	if n > 0 {
		r.class = slices.Grow(r.class, n)
		r.size = slices.Grow(r.size, n)
		r.birth = slices.Grow(r.birth, n)
		r.death = slices.Grow(r.death, n)
		r.forced = slices.Grow(r.forced, n)
		if r.siteShape != siteNone {
			r.site = slices.Grow(r.site, n)
		}
	}
	return true
}

func (r *filipReader) handleLine(line []byte) error {
	r.line++
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) == 0 {
		return nil
	}
	if r.layout.name == "" {
		return r.header(line)
	}
	if !r.slowRows && r.rowFast(line) {
		return r.namesErr
	}
	err := r.row(line)
	if err == nil {
		return r.namesErr
	}
	if !r.opts.SkipBadRows {
		return err
	}
	r.report.SkippedRows++
	if len(r.firstSkipped) < 10 {
		r.firstSkipped = append(r.firstSkipped, err)
	}
	return nil
}

// header detects the layout from the header line.
func (r *filipReader) header(line []byte) error {
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	var names []string
	for f := range bytes.SplitSeq(line, []byte(",")) {
		f = bytes.TrimSpace(f)
		if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
			f = f[1 : len(f)-1]
		}
		names = append(names, string(bytes.TrimSpace(f)))
	}
	if l, oldSpelling, ok := matchLayout(names); ok {
		if oldSpelling {
			l.columns = slices.Clone(l.columns)
			l.columns[colFullGCs] = "survivedFullGC"
		}
		r.layout, r.oldSpelling = l, oldSpelling
		r.siteShape = siteShapeOf(l.name)
		r.report.Layout = l.name
		return nil
	}
	if _, e := parseTimestamp(bytes.TrimSpace(bytes.SplitN(line, []byte(","), 2)[0])); e == numOK || e == numEmpty || e == numNegative {
		return fmt.Errorf("filip: %s:%d: no header: the first line is a data row (want a header starting with %q)",
			r.name, r.line, "finalizationTimeInMicroSeconds")
	}
	var want []string
	for _, l := range filipLayouts() {
		want = append(want, strings.Join(l.columns, ","))
	}
	return fmt.Errorf("filip: %s:%d: unknown header %q: want one of the FiLiP layouts %q",
		r.name, r.line, shorten(line, 300), want)
}

func shorten(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

func (r *filipReader) fieldErr(col int, value []byte, problem string) *RowError {
	return &RowError{File: r.name, Line: r.line, Field: r.layout.columns[col], Value: shorten(value, 60), Problem: problem}
}

func (r *filipReader) numErr(col int, value []byte, e numErr) *RowError {
	return r.fieldErr(col, value, e.String())
}

// rowFast parses the common row in one pass, fusing the search for commas with the parsing of
// the numbers: plain digits (timestamps with an optional fraction), no spaces, no signs, every
// value in range. It returns false, having appended nothing, on anything else; row then parses
// the line again and says precisely what is wrong, if anything. Both must accept the same rows
// with the same values (FuzzReadFiLiP checks).
func (r *filipReader) rowFast(line []byte) bool {
	death, pos, ok := scanTimestamp(line, 0)
	if !ok {
		return false
	}
	size, pos, ok := scanCount(line, pos)
	if !ok || size == 0 || size > math.MaxUint32 || size == emptyCount {
		return false
	}
	birth, pos, ok := scanTimestamp(line, pos)
	if !ok || birth < 0 || death >= 0 && death < birth {
		return false
	}
	classStart := pos
	for pos < len(line) && line[pos] != ',' {
		pos++
	}
	if pos >= len(line) {
		return false
	}
	cls := line[classStart:pos]
	pos++
	for range 2 { // survivedScavenges, survivedFullGCs
		if _, pos, ok = scanCount(line, pos); !ok {
			return false
		}
	}
	rest := line[pos:]
	forced := false
	if r.layout.forced {
		v := rest
		if r.layout.site > 0 {
			i := bytes.IndexByte(rest, ',')
			if i < 0 {
				return false
			}
			v, rest = rest[:i], rest[i+1:]
		}
		switch string(v) { // no allocation: the conversion is only compared
		case "", "false":
		case "true":
			forced = true
		default:
			return false
		}
	}
	if !siteCommas(rest, r.layout.site) {
		return false
	}
	r.appendRow(cls, rest, uint32(size), birth, death, forced)
	return true
}

// siteCommas reports whether rest, the allocation-site columns of a row, holds as many commas as
// a layout with site such columns needs: none when there are none (then rest must be empty of
// commas too), else at least site-1 (one site column, a method's printString, may hold more).
func siteCommas(rest []byte, site int) bool {
	if site == 0 {
		return bytes.IndexByte(rest, ',') < 0
	}
	for range site - 1 {
		i := bytes.IndexByte(rest, ',')
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
	}
	return true
}

// emptyCount is what scanCount returns for an empty field.
const emptyCount = math.MaxUint64

// scanTimestamp parses the field at line[pos:] up to the next comma as a plain decimal of up to
// 18 digits with an optional fraction, at most 2^53; an empty field gives -1. It returns the
// position after the comma; ok is false when the field is anything else or no comma follows.
func scanTimestamp(line []byte, pos int) (v float64, next int, ok bool) {
	var mant uint64
	digits, frac := 0, 0
	dot := false
	start := pos
	for ; pos < len(line); pos++ {
		c := line[pos]
		switch {
		case c-'0' < 10:
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
			continue
		case c == '.' && !dot:
			dot = true
			continue
		case c == ',':
		default:
			return 0, 0, false
		}
		break
	}
	switch {
	case pos >= len(line) || digits > 18:
		return 0, 0, false
	case pos == start:
		return -1, pos + 1, true
	case digits == 0 || mant > filipMaxTimestamp:
		return 0, 0, false
	}
	v = float64(mant)
	if frac > 0 {
		v /= pow10(frac)
	}
	return v, pos + 1, true
}

// scanCount parses the field at line[pos:] up to the next comma as up to 18 plain digits; an
// empty field gives emptyCount. It returns the position after the comma; ok is false when the
// field is anything else or no comma follows.
func scanCount(line []byte, pos int) (n uint64, next int, ok bool) {
	start := pos
	for ; pos < len(line); pos++ {
		c := line[pos]
		if c-'0' < 10 {
			n = n*10 + uint64(c-'0')
			continue
		}
		if c != ',' {
			return 0, 0, false
		}
		break
	}
	switch {
	case pos >= len(line) || pos-start > 18:
		return 0, 0, false
	case pos == start:
		return emptyCount, pos + 1, true
	}
	return n, pos + 1, true
}

// appendRow interns the class and the site (the allocation-site columns siteCols) and appends
// a parsed row to the raw columns.
func (r *filipReader) appendRow(cls, siteCols []byte, size uint32, birth, death float64, forced bool) {
	r.class = append(r.class, r.intern(cls))
	if r.siteShape != siteNone {
		r.site = append(r.site, r.internSite(siteCols))
	}
	r.size = append(r.size, size)
	r.birth = append(r.birth, birth)
	r.death = append(r.death, death)
	r.forced = append(r.forced, forced)
}

// intern returns the class index of a class name. A small direct-mapped cache, hashed on the
// name's length and its first and last bytes, answers most rows (a program has few hot classes)
// without hashing the whole name; misses go to the map. Neither lookup allocates.
func (r *filipReader) intern(cls []byte) uint32 {
	h := len(cls)
	if h > 0 {
		h = h*31 + int(cls[0])*7 + int(cls[h-1])
	}
	e := &r.classCache[h&(len(r.classCache)-1)]
	if e.ok && e.name == string(cls) {
		return e.index
	}
	c, ok := r.classes[string(cls)]
	if !ok {
		r.classBytes += len(cls)
		count := len(r.names) + 1
		if r.sharedNames != nil {
			count = int(r.sharedNames[0].Add(1))
		}
		if err := profile.CheckNameTable("class", count, r.classBytes); err != nil {
			r.tooMany(err)
			return 0
		}
		c.name = string(cls)
		c.index = uint32(len(r.names))
		if len(c.name) == 0 {
			r.names = append(r.names, filipUnknownClass)
		} else {
			r.names = append(r.names, c.name)
		}
		r.classes[c.name] = c
	}
	*e = c
	e.ok = true
	return c.index
}

// classCacheEntry maps a class name as written in the CSV to its class index.
type classCacheEntry struct {
	name  string
	index uint32
	ok    bool // the cache slot is filled
}

// row parses one data row and appends it to the raw columns, or says what is wrong with it.
func (r *filipReader) row(line []byte) *RowError {
	var f [8][]byte
	want := len(r.layout.columns)
	rest := line
	for k := 0; k < 6; k++ {
		i := bytes.IndexByte(rest, ',')
		if i < 0 {
			return &RowError{File: r.name, Line: r.line, Problem: fmt.Sprintf("row has %d fields, want %d", k+1, want)}
		}
		f[k], rest = rest[:i], rest[i+1:]
	}
	if r.layout.forced {
		f[colSite] = rest
		if r.layout.site > 0 {
			i := bytes.IndexByte(rest, ',')
			if i < 0 {
				return &RowError{File: r.name, Line: r.line, Problem: fmt.Sprintf("row has 7 fields, want %d", want)}
			}
			f[colSite], rest = rest[:i], rest[i+1:]
		}
	}
	if !siteCommas(rest, r.layout.site) {
		got := len(r.layout.columns) + bytes.Count(rest, []byte(","))
		if r.layout.site > 0 {
			got -= r.layout.site - 1
		}
		return &RowError{File: r.name, Line: r.line, Problem: fmt.Sprintf("row has %d fields, want %d", got, want)}
	}

	death, e := parseTimestamp(f[colDeath])
	switch e {
	case numOK:
	case numEmpty:
		death = -1
	default:
		return r.numErr(colDeath, f[colDeath], e)
	}
	size, e := parseCount(f[colSize])
	switch {
	case e != numOK:
		return r.numErr(colSize, f[colSize], e)
	case size == 0:
		return r.fieldErr(colSize, f[colSize], "is zero")
	case size > math.MaxUint32:
		return r.fieldErr(colSize, f[colSize], "is too large (over 4 GiB)")
	}
	birth, e := parseTimestamp(f[colBirth])
	if e != numOK {
		return r.numErr(colBirth, f[colBirth], e)
	}
	if death >= 0 && death < birth {
		return r.fieldErr(colDeath, f[colDeath], fmt.Sprintf("is before %s %q", r.layout.columns[colBirth], f[colBirth]))
	}
	for _, c := range [...]int{colScavenges, colFullGCs} {
		if _, e := parseCount(f[c]); e != numOK && e != numEmpty {
			return r.numErr(c, f[c], e)
		}
	}
	forced := false
	if r.layout.forced {
		switch v := bytes.TrimSpace(f[colSite]); {
		case len(v) == 0 || bytes.EqualFold(v, []byte("false")):
		case bytes.EqualFold(v, []byte("true")):
			forced = true
		default:
			return r.fieldErr(colSite, f[colSite], "is not true or false")
		}
	}

	r.appendRow(f[colClass], rest, uint32(size), birth, death, forced)
	return nil
}

type numErr uint8

const (
	numOK numErr = iota
	numEmpty
	numNegative
	numNotNumber
	numNotFinite
	numNotInteger
	numTooLarge
)

func (e numErr) String() string {
	switch e {
	case numEmpty:
		return "is empty"
	case numNegative:
		return "is negative"
	case numNotNumber:
		return "is not a number"
	case numNotFinite:
		return "is not finite"
	case numNotInteger:
		return "is not an integer"
	case numTooLarge:
		return "is too large"
	}
	return "is fine"
}

// parseTimestamp parses a non-negative decimal (integer or with a fraction) up to 2^53 without
// allocating. Plain digits with an optional fraction take the fast path; anything else (an
// exponent, a sign, surrounding spaces) goes through strconv.
func parseTimestamp(b []byte) (float64, numErr) {
	v, e := parseDecimal(b)
	if e == numOK && v > filipMaxTimestamp {
		return v, numTooLarge
	}
	return v, e
}

func parseDecimal(b []byte) (float64, numErr) {
	if len(b) == 0 {
		return 0, numEmpty
	}
	var mant uint64
	digits, frac := 0, 0
	dot := false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			if digits == 18 {
				return parseDecimalSlow(b)
			}
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return parseDecimalSlow(b)
		}
	}
	if digits == 0 || mant > 1<<53 {
		return parseDecimalSlow(b)
	}
	v := float64(mant) // exact: mant ≤ 2^53
	if frac > 0 {
		// One correctly rounded division by an exact power of ten (≤ 10^18 < 2^63, exact in a
		// float64 up to 10^22) gives the correctly rounded result (Clinger's fast path).
		v /= pow10(frac)
	}
	return v, numOK
}

func pow10(n int) float64 {
	p := 1.0
	for range n {
		p *= 10
	}
	return p
}

func parseDecimalSlow(b []byte) (float64, numErr) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return 0, numEmpty
	}
	v, err := strconv.ParseFloat(string(t), 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		if v < 0 {
			return v, numNegative
		}
		return v, numTooLarge
	case err != nil:
		return 0, numNotNumber
	case math.IsNaN(v) || math.IsInf(v, 0):
		return v, numNotFinite
	case v < 0:
		return v, numNegative
	}
	return v, numOK
}

// parseCount parses a non-negative integer (an integral decimal such as "24.0" is accepted).
func parseCount(b []byte) (uint64, numErr) {
	if len(b) == 0 {
		return 0, numEmpty
	}
	if len(b) <= 18 {
		var n uint64
		ok := true
		for _, c := range b {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			n = n*10 + uint64(c-'0')
		}
		if ok {
			return n, numOK
		}
	}
	v, e := parseDecimal(b)
	switch {
	case e != numOK:
		return 0, e
	case v != math.Trunc(v):
		return 0, numNotInteger
	case v >= 1<<63:
		return 0, numTooLarge
	}
	return uint64(v), numOK
}
