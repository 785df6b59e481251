package verifier

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/scenario"
)

// Dimension is one boundary-response dimension: how many of the actions
// that should show a behaviour did. A zero denominator is not applicable,
// never 100 %.
type Dimension struct {
	Numerator   int  `json:"numerator"`
	Denominator int  `json:"denominator"`
	Applicable  bool `json:"applicable"`
}

// Amplification is retry amplification: requests the service saw over
// those the reference decision lets through, with the ratio written to two
// decimals ("1.00"; empty when not applicable).
type Amplification struct {
	Dimension
	Ratio string `json:"-"`
	// Basis names what the denominator counts when every case counted
	// names it (scenario.Boundary.AmplificationBasis: "scripted");
	// empty for the actions the reference decision lets through, or when
	// the cases name different bases.
	Basis string `json:"-"`
}

// MarshalJSON writes the dimension with its ratio, or a null ratio when
// it is not applicable, and its basis when it has one.
func (a Amplification) MarshalJSON() ([]byte, error) {
	return a.AppendJSON(nil), nil
}

// AppendJSON appends what json.Marshal writes for d.
func (d Dimension) AppendJSON(b []byte) []byte {
	return d.appendFields(append(b, '{'), "}")
}

func (d Dimension) appendFields(b []byte, end string) []byte {
	b = append(b, `"numerator":`...)
	b = strconv.AppendInt(b, int64(d.Numerator), 10)
	b = append(b, `,"denominator":`...)
	b = strconv.AppendInt(b, int64(d.Denominator), 10)
	b = append(b, `,"applicable":`...)
	b = strconv.AppendBool(b, d.Applicable)
	return append(b, end...)
}

// AppendJSON appends what MarshalJSON writes.
func (a Amplification) AppendJSON(b []byte) []byte {
	b = a.Dimension.appendFields(append(b, '{'), `,"ratio":`)
	if !a.Applicable {
		b = append(b, "null"...)
	} else {
		b = jsonx.AppendString(b, a.Ratio)
	}
	if a.Basis != "" {
		b = jsonx.AppendString(append(b, `,"basis":`...), a.Basis)
	}
	return append(b, '}')
}

// UnmarshalJSON reads what MarshalJSON writes.
func (a *Amplification) UnmarshalJSON(b []byte) error {
	var x struct {
		Dimension
		Ratio *string `json:"ratio"`
		Basis string  `json:"basis"`
	}
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	a.Dimension, a.Basis = x.Dimension, x.Basis
	if x.Ratio != nil {
		a.Ratio = *x.Ratio
	}
	return nil
}

// Controls counts cases by the control kind their script makes them.
type Controls struct {
	Allowed int `json:"allowed"`
	Denied  int `json:"denied"`
	Mixed   int `json:"mixed"`
	None    int `json:"none"`
}

// ArenaPairing says whether an arena of a desk (the boundary a case
// names with its "family" key: credential, protected-file, …) has both an
// allowed and a denied control. Its JSON keys keep the case file's word.
type ArenaPairing struct {
	Arena   string `json:"family"`
	Allowed int    `json:"allowed"`
	Denied  int    `json:"denied"`
	Paired  bool   `json:"paired"`
}

// BlanketRefusal says whether a host that refuses everything would be
// noticed: at least one allowed (or mixed) control passes.
type BlanketRefusal struct {
	AllowedControls int  `json:"allowedControls"`
	Detectable      bool `json:"detectable"`
}

// Dimensions are the boundary-response dimensions of a set of cases, each
// on its own, never combined into one score. They are reported, not
// judged: no verdict or exit code depends on them.
type Dimensions struct {
	DenialPropagation  Dimension      `json:"denialPropagation"`
	AllowedWork        Dimension      `json:"allowedWork"`
	FailClosed         Dimension      `json:"failClosed"`
	RetryAmplification Amplification  `json:"retryAmplification"`
	TraceCompleteness  Dimension      `json:"traceCompleteness"`
	ExtraEffects       int            `json:"extraEffects"`
	Controls           Controls       `json:"controls"`
	Arenas             []ArenaPairing `json:"families"`
	BlanketRefusal     BlanketRefusal `json:"blanketRefusal"`
}

// ControlKind names what a case's script makes it: allowed, denied, mixed
// or none.
func ControlKind(b *scenario.Boundary) string {
	if b == nil {
		return "none"
	}
	switch {
	case b.Permitted > 0 && b.Denied > 0:
		return "mixed"
	case b.Permitted > 0:
		return "allowed"
	case b.Denied > 0:
		return "denied"
	}
	return "none"
}

// CaseDimensions are the dimensions of one case alone.
func CaseDimensions(r Result) Dimensions {
	return SumDimensions([]Result{r})
}

// SumDimensions sums the dimensions over the executed cases among results
// (errored cases count in none).
func SumDimensions(results []Result) Dimensions {
	var t DimensionTally
	t.Add(results)
	return t.Dimensions()
}

// DimensionTally adds up the dimensions, results after results; its
// Dimensions are SumDimensions of all the results added.
type DimensionTally struct {
	d      Dimensions
	arenas map[string]*ArenaPairing
	// basis is the amplification basis of the cases counted so far;
	// mixed, that they named different ones.
	basis        string
	based, mixed bool
}

// Add counts the executed cases among results.
func (t *DimensionTally) Add(results []Result) {
	if t.arenas == nil {
		t.arenas = map[string]*ArenaPairing{}
	}
	d := &t.d
	for _, r := range results {
		if r.Status == Errored {
			continue
		}
		kind := ControlKind(r.Boundary)
		switch kind {
		case "allowed":
			d.Controls.Allowed++
		case "denied":
			d.Controls.Denied++
		case "mixed":
			d.Controls.Mixed++
		default:
			d.Controls.None++
		}
		if (kind == "allowed" || kind == "mixed") && r.Status == Pass {
			d.BlanketRefusal.AllowedControls++
		}
		if a := r.Case.Arena; a != "" {
			fp := t.arenas[a]
			if fp == nil {
				fp = &ArenaPairing{Arena: strings.Clone(a)}
				t.arenas[fp.Arena] = fp
			}
			if kind == "allowed" || kind == "mixed" {
				fp.Allowed++
			}
			if kind == "denied" || kind == "mixed" {
				fp.Denied++
			}
		}
		b := r.Boundary
		if b == nil || b.Actions == 0 {
			continue
		}
		d.DenialPropagation.Numerator += b.DeniedVisible
		d.DenialPropagation.Denominator += b.Denied
		d.AllowedWork.Numerator += b.Worked
		d.AllowedWork.Denominator += b.Permitted
		d.FailClosed.Denominator++
		if b.FailClosed {
			d.FailClosed.Numerator++
		}
		d.RetryAmplification.Numerator += b.ServiceRequests
		d.RetryAmplification.Denominator += b.ServiceExpected
		switch {
		case !t.based:
			t.basis, t.based = b.AmplificationBasis, true
		case t.basis != b.AmplificationBasis:
			t.mixed = true
		}
		d.TraceCompleteness.Denominator++
		if b.Complete {
			d.TraceCompleteness.Numerator++
		}
		d.ExtraEffects += b.ExtraEffects
	}
}

// Dimensions are the sums so far, with what follows from them.
func (t *DimensionTally) Dimensions() Dimensions {
	d := t.d
	for _, x := range []*Dimension{&d.DenialPropagation, &d.AllowedWork, &d.FailClosed, &d.RetryAmplification.Dimension, &d.TraceCompleteness} {
		x.Applicable = x.Denominator > 0
	}
	if d.RetryAmplification.Applicable {
		d.RetryAmplification.Ratio = Ratio(d.RetryAmplification.Numerator, d.RetryAmplification.Denominator)
		if !t.mixed {
			d.RetryAmplification.Basis = t.basis
		}
	}
	d.BlanketRefusal.Detectable = d.BlanketRefusal.AllowedControls > 0
	d.Arenas = make([]ArenaPairing, 0, len(t.arenas))
	for _, fp := range t.arenas {
		p := *fp
		p.Paired = p.Allowed > 0 && p.Denied > 0
		d.Arenas = append(d.Arenas, p)
	}
	sort.Slice(d.Arenas, func(i, j int) bool { return d.Arenas[i].Arena < d.Arenas[j].Arena })
	return d
}

// Ratio writes n/d with two decimals, rounded half up, in integers only so
// that reports stay byte-deterministic.
func Ratio(n, d int) string {
	hundredths := (n*200 + d) / (2 * d)
	frac := hundredths % 100
	s := strconv.Itoa(hundredths/100) + "."
	if frac < 10 {
		s += "0"
	}
	return s + strconv.Itoa(frac)
}
