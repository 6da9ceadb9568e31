// Package open is the viewer's open flow: the files asked for, whatever
// they came from (a drop of files or a folder, the file chooser, a URL, a
// Hugging Face dataset, a sample, or what web/boot.js took before the
// wasm started), opened in the background and handed to the page.
//
// Entry points:
//
//	Opener            owns what the page says of the file asked for
//	                  (Status), where the file shown is read from (Opened)
//	                  and the background work on it (Work: indexing, a
//	                  download); the page holds one
//	Opener.Init       gives it its Page and takes web/boot.js's queue
//	Opener.Handle     registers the open actions (ActionOpen, ActionOpenURL,
//	                  …) on a go-app context
//	Opener.TakeBooted opens what web/boot.js held, once the page is mounted
//	Page              what the opener needs of the page: Apply a
//	                  session.Opened, the file shown, the schema panel
//	DropZone, URLForm, HFForm, Samples
//	                  the empty page's ways to ask for a file
//
// The opener tells the page's session model of each file shown
// (session.Opened); a slow open that a newer one overtook is dropped.
// Opened files are decode.Files: the formats and their readers live in
// app/decode.
package open
