package trialstore

import (
	"fmt"
	"sort"

	"gorm.io/gorm/clause"
)

// userAttrRow is a row of goptuna's trial_user_attributes table (rdb.v2's
// trialUserAttributeModel), for writing several attributes in one statement.
type userAttrRow struct {
	ID      int    `gorm:"column:trial_user_attribute_id;primaryKey"`
	TrialID int    `gorm:"column:trial_id"`
	Key     string `gorm:"column:key"`
	Value   string `gorm:"column:value"`
}

func (userAttrRow) TableName() string { return "trial_user_attributes" }

// SetTrialUserAttrs sets several user attributes of a trial at once: one INSERT ... ON CONFLICT
// DO UPDATE (SQLite ≥ 3.24 and PostgreSQL alike) in one transaction, instead of goptuna's
// select-then-write per attribute. gctune's loop writes about a dozen metrics per trial, so this
// is most of the storage's cost per trial. Without a database (a wrapper around another
// storage), it falls back to one SetTrialUserAttr per key.
func (c *cachedStorage) SetTrialUserAttrs(trialID int, attrs map[string]string) error {
	defer c.invalidate(trialID)
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if c.db == nil {
		for _, k := range keys {
			if err := c.inner.SetTrialUserAttr(trialID, k, attrs[k]); err != nil {
				return err
			}
		}
		return nil
	}
	rows := make([]userAttrRow, 0, len(keys))
	for _, k := range keys {
		rows = append(rows, userAttrRow{TrialID: trialID, Key: k, Value: attrs[k]})
	}
	err := c.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "trial_id"}, {Name: "key"}},
		DoUpdates: clause.AssignmentColumns([]string{"value"}),
	}).Create(&rows).Error
	if err != nil {
		return fmt.Errorf("trialstore: set attributes of trial %d: %w", trialID, err)
	}
	return nil
}
