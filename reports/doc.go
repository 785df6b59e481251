// Package reports renders verification results: JSON evidence and
// human-readable text, fed the same results and sorted the same way. It
// reads nothing of the process it runs in: the time, the home and working
// folders and the build come in an Origin. The report folder is written by
// package reports/folder (privately and as a whole); FolderFiles are its
// files.
package reports
