namespace macroscope {}
