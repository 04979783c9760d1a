"""Rules every stage shares: source errors, localized text, reading numbers, safe arithmetic."""
