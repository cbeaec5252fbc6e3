package trialstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// ErrNoDoc is returned (wrapped) by LoadDoc when the study holds no document under the key.
var ErrNoDoc = errors.New("trialstore: no such document")

// maxDocChunks bounds a stored document: 2,000 bytes a chunk, 4 MB in all.
const maxDocChunks = 2000

// SaveDoc stores v, JSON-encoded, as the study's document named key (a study system attribute
// prefix such as "gctune:recommendation"), split into chunks as SaveProblem splits the
// problem, with its SHA-256, in one transaction that first removes the document stored
// before: a reader sees the old document or the new one, never a mix.
func (s *Store) SaveDoc(studyID int, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("trialstore: encode %s: %w", key, err)
	}
	chunks := splitChunks(string(b), chunkBytes)
	if len(chunks) > maxDocChunks {
		return fmt.Errorf("trialstore: %s is %d bytes, more than a study stores", key, len(b))
	}
	sum := sha256.Sum256(b)
	err = s.db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("DELETE FROM study_system_attributes WHERE study_id = ? AND (key = ? OR key LIKE ?)",
			studyID, key, key+":%").Error; err != nil {
			return err
		}
		st := rdb.NewStorage(tx)
		attrs := [][2]string{
			{key + ":chunks", strconv.Itoa(len(chunks))},
			{key + ":sha256", hex.EncodeToString(sum[:])},
			{key, chunks[0]},
		}
		for i := 1; i < len(chunks); i++ {
			attrs = append(attrs, [2]string{key + ":" + strconv.Itoa(i), chunks[i]})
		}
		for _, a := range attrs {
			if err := st.SetStudySystemAttr(studyID, a[0], a[1]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("trialstore: save %s of study %d: %w", key, studyID, err)
	}
	return nil
}

// LoadDoc decodes the study's document named key into v. A study without one gives an error
// matching ErrNoDoc; a damaged one (a chunk missing, a bad count, a checksum that does not
// match) an error saying so.
func (s *Store) LoadDoc(studyID int, key string, v any) error {
	attrs, err := s.raw.GetStudySystemAttrs(studyID)
	if err != nil {
		return fmt.Errorf("trialstore: load %s of study %d: %w", key, studyID, err)
	}
	first, ok := attrs[key]
	if !ok {
		return fmt.Errorf("trialstore: study %d: %s: %w", studyID, key, ErrNoDoc)
	}
	n, err := strconv.Atoi(attrs[key+":chunks"])
	if err != nil || n < 1 || n > maxDocChunks {
		return fmt.Errorf("trialstore: study %d: bad %s chunk count %q", studyID, key, attrs[key+":chunks"])
	}
	var b strings.Builder
	b.WriteString(first)
	for i := 1; i < n; i++ {
		chunk, ok := attrs[key+":"+strconv.Itoa(i)]
		if !ok {
			return fmt.Errorf("trialstore: study %d: %s chunk %d of %d missing", studyID, key, i, n)
		}
		b.WriteString(chunk)
	}
	data := []byte(b.String())
	sum := sha256.Sum256(data)
	if got, want := hex.EncodeToString(sum[:]), attrs[key+":sha256"]; got != want {
		return fmt.Errorf("trialstore: study %d: stored %s is corrupt (sha256 %s, want %s)", studyID, key, got, want)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("trialstore: study %d: decode %s: %w", studyID, key, err)
	}
	return nil
}
