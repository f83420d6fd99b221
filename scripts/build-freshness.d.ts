// Types of build-freshness.js, which stays JavaScript so npm start compiles nothing.
export declare const builtServer: string;
export declare function buildIsCurrent(): boolean;
