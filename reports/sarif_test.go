package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xeipuuv/gojsonschema"

	"github.com/deskcheck/deskcheck/verifier"
)

// SARIFSchemaPath is the SARIF 2.1.0 JSON schema as OASIS published it.
const sarifSchemaPath = "testdata/sarif/sarif-schema-2.1.0.json"

var (
	sarifSchemaOnce sync.Once
	sarifSchema     *gojsonschema.Schema
	sarifSchemaErr  error
)

// checkSARIF validates a SARIF log against the published schema.
func checkSARIF(t *testing.T, data []byte) {
	t.Helper()
	sarifSchemaOnce.Do(func() {
		var text []byte
		if text, sarifSchemaErr = os.ReadFile(sarifSchemaPath); sarifSchemaErr == nil {
			sarifSchema, sarifSchemaErr = gojsonschema.NewSchema(gojsonschema.NewBytesLoader(text))
		}
	})
	require.NoError(t, sarifSchemaErr)
	res, err := sarifSchema.Validate(gojsonschema.NewBytesLoader(data))
	require.NoError(t, err)
	for _, e := range res.Errors() {
		t.Errorf("SARIF schema: %s", e)
	}
	require.True(t, res.Valid())
}

type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			Notifications []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string }                  `json:"artifactLocation"`
					Region           *struct{ StartLine, StartColumn int } `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          map[string]string `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

func sarifOf(t *testing.T, s SARIF, r *Report) (sarifDoc, []byte) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, r))
	checkSARIF(t, buf.Bytes())
	var doc sarifDoc
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	require.Len(t, doc.Runs, 1)
	for _, res := range doc.Runs[0].Results {
		require.Less(t, res.RuleIndex, len(doc.Runs[0].Tool.Driver.Rules))
		assert.Equal(t, res.RuleID, doc.Runs[0].Tool.Driver.Rules[res.RuleIndex].ID, "ruleIndex points at the result's rule")
		assert.NotEmpty(t, res.PartialFingerprints[FingerprintKey])
		for _, loc := range res.Locations {
			if assert.NotNil(t, loc.PhysicalLocation.Region, "code scanning places a result by its line") {
				assert.Positive(t, loc.PhysicalLocation.Region.StartLine)
			}
		}
	}
	return doc, buf.Bytes()
}

func TestSARIF(t *testing.T) {
	t.Run("a failing case: one result per mismatch at the case's line", func(t *testing.T) {
		doc, _ := sarifOf(t, SARIF{}, stableReport(t, mutatedDesk(t)))
		run := doc.Runs[0]
		require.Len(t, run.Results, 1)
		res := run.Results[0]
		assert.Equal(t, "mismatch/exact", res.RuleID)
		assert.Equal(t, "error", res.Level)
		assert.Equal(t, "testdata/boundary-desk-mutated.json", res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		require.NotNil(t, res.Locations[0].PhysicalLocation.Region)
		assert.Equal(t, 140, res.Locations[0].PhysicalLocation.Region.StartLine)
		assert.Equal(t, fingerprint("case", "boundary-desk/boundary-deny-one-call", "prompts"), res.PartialFingerprints[FingerprintKey])
		assert.Equal(t, "prompts", res.Properties["key"])
	})
	t.Run("missed faults at the first line of their host's desk; every fault a rule", func(t *testing.T) {
		r := withStrength(t)
		doc, _ := sarifOf(t, SARIF{Registry: testReg}, r)
		run := doc.Runs[0]
		missed := r.Strength.Faults - r.Strength.Caught
		require.Len(t, run.Results, missed)
		for _, res := range run.Results {
			assert.True(t, strings.HasPrefix(res.RuleID, "fault/"+boundaryFamily(t).Host.Name+"/"), res.RuleID)
			assert.Equal(t, "../cases/boundary-desk.json", res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
			assert.Equal(t, 1, res.Locations[0].PhysicalLocation.Region.StartLine)
		}
		assert.Len(t, run.Tool.Driver.Rules, r.Strength.Faults, "one rule per fault measured")
	})
	t.Run("diagnostics: one rule per check", func(t *testing.T) {
		ds := verifier.Diagnostics{
			{Severity: verifier.Error, File: "desks/a b.json", Line: 12, Col: 55, Pointer: "/cases/0/expected/promts", Summary: `expected key "promts" is not observed by scenario alpha; did you mean "prompts"?`},
			{Severity: verifier.Warning, File: "desks/a b.json", Line: 3, Col: 12, Pointer: "/label", Summary: "the label should warn readers: DO NOT EXECUTE"},
			{Severity: verifier.Warning, File: "desks/c.json", Line: 9, Col: 3, Pointer: "/cases/0/family", Summary: "family f has no denied control"},
			{Severity: verifier.Error, File: "/abs/d.json", Line: 1, Col: 1, Summary: "malformed JSON: unexpected end"},
		}
		var buf bytes.Buffer
		require.NoError(t, SARIF{Diagnostics: ds, Version: "v1.2.3"}.WriteDiagnostics(&buf))
		checkSARIF(t, buf.Bytes())
		var doc sarifDoc
		require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
		var ids []string
		for _, res := range doc.Runs[0].Results {
			ids = append(ids, res.RuleID+" "+res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		}
		assert.Equal(t, []string{"lint/expected-key desks/a%20b.json", "lint/malformed-json file:///abs/d.json", "lint/label desks/a%20b.json", "lint/pairing desks/c.json"}, ids, "errors first, spread over the files")
	})
	t.Run("fingerprints do not move with lines", func(t *testing.T) {
		a := stableReport(t, mutatedDesk(t))
		b := stableReport(t, mutatedDesk(t))
		for i := range b.Cases {
			b.Cases[i].Line += 7
		}
		da, _ := sarifOf(t, SARIF{}, a)
		db, _ := sarifOf(t, SARIF{}, b)
		assert.Equal(t, da.Runs[0].Results[0].PartialFingerprints, db.Runs[0].Results[0].PartialFingerprints)
	})
}

// TestSARIFCapped: a suite of 10,000 failures gives code scanning no more
// results than it shows, spread over the files, under its 10 MB limit,
// and says how many were left out.
func TestSARIFCapped(t *testing.T) {
	r := scaleReport(t, 100, 100, 100)
	doc, data := sarifOf(t, SARIF{}, r)
	run := doc.Runs[0]
	assert.Len(t, run.Results, SARIFResults)
	assert.Less(t, len(data), 10<<20, "under code scanning's 10 MB")
	files := map[string]bool{}
	for _, res := range run.Results[:100] {
		files[res.Locations[0].PhysicalLocation.ArtifactLocation.URI] = true
	}
	assert.Len(t, files, 100, "the first failure of every file before the second of any")
	require.Len(t, run.Invocations[0].Notifications, 1)
	assert.Equal(t, "5,000 of 10,000 results are written (code scanning shows at most 5,000 of a run); the 5,000 left out are in report.json in the report folder", run.Invocations[0].Notifications[0].Message.Text)
}
