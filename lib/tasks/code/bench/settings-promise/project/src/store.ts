/** The settings store: string values by key, read asynchronously as a remote store would be. */

export type SettingsStore = ReadonlyMap<string, string>;

export type Callback<T> = (error: Error | null, value?: T) => void;

/** Calls back with the value of `key`, or an error when the store has none. Plugins still use this form. */
export function readSetting(store: SettingsStore, key: string, callback: Callback<string>): void {
  setImmediate(() => {
    const value = store.get(key);
    if (value === undefined) callback(new Error(`no setting "${key}"`));
    else callback(null, value);
  });
}
