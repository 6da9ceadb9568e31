package open

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
)

// Handle registers the handlers of the open flow's actions (ActionOpen,
// ActionOpenURL, ActionOpenFailed, ActionWarmedUp, ActionProgress,
// ActionChanged, ActionCancel). Each ends with Update.
func (op *Opener) Handle(ctx app.Context) {
	ActionOpen.Handle(ctx, op.Open)
	ActionOpenURL.Handle(ctx, op.OpenURL)
	ActionOpenFailed.Handle(ctx, func(ctx app.Context, f OpenFailure) {
		op.Status.FailedOn(f.What, f.Why)
		ctx.Update()
	})
	ActionWarmedUp.Handle(ctx, op.onWarmedUp)
	ActionProgress.Handle(ctx, op.onProgress)
	ActionChanged.Handle(ctx, op.onChanged)
	ActionCancel.Handle(ctx, op.onCancel)
}

// StopEarly stops the read of the first rows that the open started, if
// under way.
func (op *Opener) StopEarly(app.Context) {
	if op.Opened.Early != nil {
		op.Opened.Early()
	}
}

// onWarmedUp keeps how the warm-up ended, unless a file was opened first.
func (op *Opener) onWarmedUp(ctx app.Context, r WarmUpResult) {
	if op.WarmUp == WarmUpPending {
		op.WarmUp = r
	}
	ctx.Update()
}

// onProgress shows the progress of the download under way.
func (op *Opener) onProgress(ctx app.Context, p *session.Progress) {
	if op.Work.Cancel != nil && op.Work.Task == TaskDownload {
		op.Work.Progress = p
		ctx.Update()
	}
}

// onChanged stops reading a file that changed on the server, and says so.
func (op *Opener) onChanged(ctx app.Context, reason string) {
	op.Opened.Changed = reason
	op.StopIndexing()
	ctx.Update()
}

// onCancel stops indexing (the progress bar's Cancel).
func (op *Opener) onCancel(ctx app.Context) {
	op.StopIndexing()
	ctx.Update()
}
