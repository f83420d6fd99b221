/** Days after delivery within which a misprint, damage or size exchange can be reported (returns page and FAQ). */
export const CLAIM_WINDOW_DAYS = 30;
