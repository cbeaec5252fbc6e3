package trialstore

import (
	"fmt"
	"unicode/utf8"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// Study and trial system attributes the storage itself writes or lists. goptuna's own is
// AttrFixedParams; the records gctune keeps with a study (its problem, its recommendation,
// verify's runs) are package study's and verify's, written through ReplaceStudyAttrs.
const (
	// AttrProblemKind names what record the study holds (NewStudy.Kind): listings show it.
	AttrProblemKind = "gctune:problem_kind"
	// AttrVersion is the build that created the study (NewStudy.Version).
	AttrVersion = "gctune:version"
	// AttrCreated is when the study was created, RFC 3339 with nanoseconds, UTC.
	AttrCreated = "gctune:created"
	// AttrHeartbeat is a RUNNING trial's last heartbeat, Unix nanoseconds (Beat).
	AttrHeartbeat = "gctune:heartbeat"
	// AttrRetryOf is, on a trial Reap enqueued, the number of the reaped trial it retries.
	AttrRetryOf = "gctune:retry_of"
	// AttrClaim is, on a trial a retrying storage created or claimed (NewRetryStorage), the
	// random token of that call: a repeat of the call finds by it what its first attempt did.
	AttrClaim = "gctune:claim"
	// AttrFixedParams is goptuna's system attribute of an enqueued (WAITING) trial: the JSON
	// object of the internal values of the parameters to evaluate (Study.EnqueueTrial).
	AttrFixedParams = "fixed_params"
)

// MaxAttrChars bounds a study or trial attribute's value: goptuna declares them
// varchar(2048), which PostgreSQL enforces (in characters). A record longer than that is
// split by its owner into several attributes.
const MaxAttrChars = 2048

// ReplaceStudyAttrs writes attrs as system attributes of study studyID, in one transaction
// that first deletes every system attribute whose key starts with stale (none when stale is
// ""): a reader sees the attributes as they were or as they are now, never a mix, and a
// record that shrank leaves none of its old pieces behind.
func (s *Store) ReplaceStudyAttrs(studyID int, stale string, attrs [][2]string) error {
	err := s.db.Transaction(func(tx *gorm.DB) error {
		if stale != "" {
			// substr, not LIKE: '_' and '%' in a key are themselves.
			if err := tx.Exec("DELETE FROM study_system_attributes WHERE study_id = ? AND substr(key, 1, ?) = ?",
				studyID, utf8.RuneCountInString(stale), stale).Error; err != nil {
				return err
			}
		}
		return setStudyAttrs(rdb.NewStorage(tx), studyID, attrs)
	})
	if err != nil {
		return fmt.Errorf("trialstore: write attributes of study %d: %w", studyID, err)
	}
	return nil
}

// setStudyAttrs sets attrs on study studyID through st (a storage inside a transaction).
func setStudyAttrs(st goptuna.Storage, studyID int, attrs [][2]string) error {
	for _, a := range attrs {
		if err := st.SetStudySystemAttr(studyID, a[0], a[1]); err != nil {
			return err
		}
	}
	return nil
}
