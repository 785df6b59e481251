package omp

// ClassifyRule classifies v as IsPermissionDeniedWith does and says which
// of the classifier's rules decided: 1, not an error object; 2, the
// structured code; 3, the message (0 when a fault decided).
func ClassifyRule(s Faults, v any) (denied bool, rule int, why string) {
	denied = IsPermissionDeniedWith(s, v)
	err, ok := v.(error)
	if !ok || err == nil {
		return denied, 1, "a plain value, not an error object, is never permission-denied"
	}
	if s.Has(FaultClassifierMessageFirst) || s.Has(FaultClassifierIgnoresMessage) {
		return denied, 0, "a faulty classifier decided"
	}
	if c, ok := err.(Coded); ok {
		if code, ok := c.ErrorCode(); ok {
			if denied {
				return denied, 2, "the structured code " + code + " is EPERM, EACCES or EROFS; the message is not read"
			}
			return denied, 2, "the structured code " + code + " is not EPERM, EACCES or EROFS; the message is not read"
		}
	}
	if denied {
		return denied, 3, "no structured code, and the message holds EPERM, EACCES or EROFS as a word"
	}
	return denied, 3, "no structured code, and the message holds none of EPERM, EACCES, EROFS as a word"
}
