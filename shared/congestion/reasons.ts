/** The message key of why a passage costs less than its band's amount ('same-crossing' -> CongestionReason_sameCrossing). */
export const congestionReasonKey = (reason: string): string => `CongestionReason_${reason.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}`;
