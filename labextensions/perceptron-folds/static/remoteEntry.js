// perceptron-folds: JupyterLab keeps a folded cell folded when it runs it.
//
// JupyterLab 4 unfolds every cell it runs: a code cell shows its new output (CodeCell.execute sets
// outputHidden to false, whatever jupyter.outputs_hidden says) and a Markdown cell its text (running it
// sets inputHidden to false). No notebook metadata or setting stops that, so Run All would open every
// solution of a chapter under its exercise. This plugin folds a cell again right after JupyterLab
// unfolds it for a run, and only then: a cell the reader opened stays open when it runs again.
//
// A prebuilt federated extension written by hand (no build step): the container protocol JupyterLab
// loads extensions with (init with the shared scope, get a module factory), taking @jupyterlab/notebook
// from the application's shared scope (the application's own copy of it).
(function () {
  "use strict";
  const NAME = "perceptron-folds";
  let shared = null;

  async function sharedModule(name) {
    const versions = shared && shared[name];
    if (!versions || !Object.keys(versions).length) {
      throw new Error(`${NAME}: ${name} is not shared by this JupyterLab`);
    }
    const factory = await versions[Object.keys(versions)[0]].get();
    return factory();
  }

  function plugin({ INotebookTracker, NotebookActions }) {
    return {
      id: `${NAME}:plugin`,
      description: "A folded cell stays folded when it runs (Run All included).",
      autoStart: true,
      requires: [INotebookTracker],
      activate(app, tracker) {
        // Markdown: running a cell unfolds it and then reports it executed, in one go. A cell whose
        // jupyter.source_hidden was just removed (this task, before the next microtask) is such a cell.
        const justUnfolded = new WeakSet();
        const watched = new WeakSet();
        const onMetadata = (model, change) => {
          const before = change.oldValue || {}, after = change.newValue || {};
          if (change.key === "jupyter" && before.source_hidden === true && !after.source_hidden) {
            justUnfolded.add(model);
            queueMicrotask(() => justUnfolded.delete(model));
          }
        };
        const watch = model => {
          if (model && !watched.has(model)) {
            watched.add(model);
            model.metadataChanged.connect(onMetadata);
          }
        };
        const watchNotebook = model => {
          if (!model) return;
          for (let i = 0; i < model.cells.length; i++) watch(model.cells.get(i));
          model.cells.changed.connect((_, change) => change.newValues.forEach(watch));
        };
        tracker.widgetAdded.connect((_, panel) => {
          watchNotebook(panel.content.model);
          panel.content.modelChanged.connect(() => watchNotebook(panel.content.model));
        });
        NotebookActions.executed.connect((_, { cell }) => {
          if (cell.model.type === "markdown" && justUnfolded.has(cell.model)) cell.inputHidden = true;
        });
        // Code: a cell is reported scheduled just before CodeCell.execute unfolds its output (in the
        // same task), so a fold seen here is put back in the next microtask, before any output shows.
        NotebookActions.executionScheduled.connect((_, { cell }) => {
          if (cell.outputHidden) {
            queueMicrotask(() => {
              if (!cell.isDisposed) cell.outputHidden = true;
            });
          }
        });
      },
    };
  }

  const container = {
    init(scope) {
      shared = scope;
    },
    async get(module) {
      if (module !== "./extension") throw new Error(`${NAME}: no module ${module}`);
      const exports = { __esModule: true, default: plugin(await sharedModule("@jupyterlab/notebook")) };
      return () => exports;
    },
  };
  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NAME] = container;
})();
