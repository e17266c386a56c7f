/**
 * lib/forms's front door: the runs page's forms free of React (the run form's fields, values, parsing and submit
 * model; the model choice shared by the run form and the fork dialog; the runs list's filters, sort and rows), for
 * components/runs and components/run.
 * Browser-safe (its package.json says it has no side effects, so a page bundles only what it uses).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */
export * from './code-goal';
export * from './experiment-form';
export * from './experiment-view';
export * from './import-file';
export * from './model-choice';
export * from './run-form';
export * from './runs-list';
export * from './session';
