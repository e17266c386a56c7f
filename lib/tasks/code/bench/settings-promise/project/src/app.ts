import { readSetting, type SettingsStore } from './store';

export interface AppState {
  theme: string;
  language: string;
}

/** The app's state from the store; a setting the store lacks takes its default (theme "light", language "en"). */
export function startApp(store: SettingsStore): Promise<AppState> {
  return new Promise((resolve, reject) => {
    readSetting(store, 'theme', (themeError, theme) => {
      if (themeError) return reject(themeError);
      readSetting(store, 'language', (languageError, language) => {
        if (languageError) return reject(languageError);
        resolve({ theme: theme ?? 'light', language: language ?? 'en' });
      });
    });
  });
}
