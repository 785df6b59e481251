// Package reports renders verification results: JSON evidence and
// human-readable text, fed the same results and sorted the same way. Files
// are written privately (folder 0700, files 0600) and atomically (temp file
// and rename), so a failure leaves no partial report and keeps earlier ones.
package reports
