/**
 * The console password rule, stated once: the API (POST /ui/api/auth/password), the account
 * service (and so `wharf accounts create|password --password`) and the sign-in form's hint all
 * read it from here. No imports, so the browser bundle can use it too.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** The rule as the form and the docs say it. */
export const PASSWORD_RULE_TEXT = `at least ${MIN_PASSWORD_LENGTH} characters`;
