package study

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gctune/gctune/trialstore"
)

// ErrNoDoc is matched (errors.Is) by the error of reading a record the study does not hold.
var ErrNoDoc = errors.New("study: no such document")

// noDocError says that a study holds no record of the name: it matches ErrNoDoc.
type noDocError struct{ what string }

func (e noDocError) Error() string        { return "no " + e.what + " stored" }
func (e noDocError) Is(target error) bool { return target == ErrNoDoc }

// chunkBytes bounds one chunk of a record's JSON: at most 2,000 bytes is at most 2,000
// characters, inside trialstore.MaxAttrChars.
const chunkBytes = 2000

// maxDocChunks bounds a stored record: 2,000 chunks of 2,000 bytes, 4 MB in all.
const maxDocChunks = 2000

// docCodec stores a record gctune keeps with a study as JSON in study system attributes: chunk
// 0 under key, chunk i > 0 under key+":"+i (at most chunkBytes each, cut between runes), the
// number of chunks under countKey and the hex SHA-256 of the whole JSON under sumKey. Reading
// it back checks all three; whatever does not match is an error marked
// trialstore.ErrDamagedStudy, the same way for every record.
type docCodec struct {
	key, countKey, sumKey string
	// what names the record in messages ("problem", "recommendation").
	what string
	// lenient: studies stored before the count and the checksum were written have neither (one
	// chunk, not checked); otherwise both must be there.
	lenient bool
}

// newDocCodec is the codec of the document named key (SaveDoc): its count and checksum beside
// it, under key+":chunks" and key+":sha256".
func newDocCodec(key string) docCodec {
	return docCodec{key: key, countKey: key + ":chunks", sumKey: key + ":sha256", what: key}
}

// stale is the prefix of the attributes a stored record may leave behind (its chunks past 0).
func (c docCodec) stale() string { return c.key + ":" }

// encode returns v's JSON as the attributes that store it.
func (c docCodec) encode(v any) ([][2]string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("study: encode %s: %w", c.what, err)
	}
	chunks := splitChunks(string(b), chunkBytes)
	if len(chunks) > maxDocChunks {
		return nil, fmt.Errorf("study: the %s is %d bytes, more than a study stores", c.what, len(b))
	}
	sum := sha256.Sum256(b)
	attrs := [][2]string{
		{c.countKey, strconv.Itoa(len(chunks))},
		{c.sumKey, hex.EncodeToString(sum[:])},
		{c.key, chunks[0]},
	}
	for i := 1; i < len(chunks); i++ {
		attrs = append(attrs, [2]string{c.key + ":" + strconv.Itoa(i), chunks[i]})
	}
	return attrs, nil
}

// decode reads the record from a study's system attributes into v (a pointer, as for
// json.Unmarshal). No record is an error matching ErrNoDoc; a chunk missing, a bad count, a
// checksum that does not match or JSON that does not decode one matching
// trialstore.ErrDamagedStudy that says which.
func (c docCodec) decode(attrs map[string]string, v any) error {
	first, ok := attrs[c.key]
	if !ok {
		return noDocError{c.what}
	}
	damaged := func(format string, args ...any) error {
		return trialstore.Damaged(fmt.Errorf("the stored %s (study attribute %s) is damaged: %s",
			c.what, c.key, fmt.Sprintf(format, args...)))
	}
	n := 1
	count, ok := attrs[c.countKey]
	if ok || !c.lenient {
		var err error
		if n, err = strconv.Atoi(count); err != nil || n < 1 || n > maxDocChunks {
			return damaged("bad chunk count %q", count)
		}
	}
	var b strings.Builder
	b.WriteString(first)
	for i := 1; i < n; i++ {
		chunk, ok := attrs[c.key+":"+strconv.Itoa(i)]
		if !ok {
			return damaged("chunk %d of %d missing", i, n)
		}
		b.WriteString(chunk)
	}
	data := []byte(b.String())
	if want, ok := attrs[c.sumKey]; ok || !c.lenient {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want {
			return damaged("sha256 %s, want %q", got, want)
		}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return damaged("%v", err)
	}
	return nil
}

// splitChunks splits s into pieces of at most n bytes, cutting only between runes.
func splitChunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}
